-- The history of each record: an append-only log written in the same transaction as each change. Purging a
-- record forgets its events with it (the foreign key cascades; GRDB turns foreign keys on).
CREATE TABLE share_event (
    seq        INTEGER PRIMARY KEY,
    share_seq  INTEGER NOT NULL REFERENCES share (seq) ON DELETE CASCADE,
    at         INTEGER NOT NULL,
    -- created, imported, renamed, moved, trashed, restored
    action     TEXT    NOT NULL,
    from_value TEXT,
    to_value   TEXT,
    -- The label of the token that made the change, never the token; 'local' without tokens.
    by         TEXT    NOT NULL
);
CREATE INDEX share_event_by_share ON share_event (share_seq, seq);

-- Records from before the log began were created when they say, by someone no one recorded.
INSERT INTO share_event (share_seq, at, action, by) SELECT seq, created_at, 'created', 'unknown' FROM share ORDER BY seq;
