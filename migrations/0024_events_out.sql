-- Events out: every change of a history, as webhooks, the live stream and the feed send it.
-- A download counted is an event of its record too: the count it reached and the access log's entry.
ALTER TABLE share_event ADD COLUMN downloads INTEGER;
ALTER TABLE share_event ADD COLUMN download_seq INTEGER;

-- Each history's events in the order they happened, written by the trigger below in the transaction of the change
-- (a change rolled back sends nothing; one committed is here when its node is killed next). What the record was at
-- that moment is kept with it, so that a delivery retried later, or after the record is purged, says the same.
-- An event's number is its id for receivers (webhook-id, Last-Event-ID): the latest event is never forgotten, so
-- that no number is given twice.
CREATE TABLE history_event (
    seq        INTEGER PRIMARY KEY,
    owner      INTEGER NOT NULL,
    share_id   TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    folder     TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    from_value TEXT,
    to_value   TEXT,
    by         TEXT    NOT NULL,
    at         INTEGER NOT NULL,
    downloads  INTEGER,
    address    TEXT,
    agent      TEXT
);
CREATE INDEX history_event_by_owner ON history_event (owner, seq);

-- An import's records are its own event each in their history, not one sent out each (an import may hold millions).
CREATE TRIGGER share_event_out AFTER INSERT ON share_event WHEN new.action <> 'imported'
BEGIN
    INSERT INTO history_event (owner, share_id, name, folder, size, type, action, from_value, to_value, by, at, downloads, address, agent)
    SELECT s.owner, s.id, s.name, s.folder, s.size, s.type, new.action, new.from_value, new.to_value, new.by, new.at,
        new.downloads, d.address, d.agent
    FROM share s LEFT JOIN share_download d ON d.seq = new.download_seq WHERE s.seq = new.share_seq;
END;

-- Webhooks: each sends its history's events, in order, from the one after `cursor`. `attempt` counts the failures of
-- the event at hand, `next_at` is when to try it again; a node delivering holds `lease_until`.
CREATE TABLE hook (
    id              TEXT    PRIMARY KEY,
    owner           INTEGER NOT NULL,
    url             TEXT    NOT NULL,
    events          TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    secret          TEXT    NOT NULL,
    old_secret      TEXT,
    old_secret_until INTEGER,
    enabled         INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL,
    cursor          INTEGER NOT NULL,
    attempt         INTEGER NOT NULL DEFAULT 0,
    next_at         INTEGER NOT NULL DEFAULT 0,
    lease_until     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX hook_by_owner ON hook (owner, created_at);

-- Every attempt to deliver an event to a hook: its answer's status (0: none), how long it took, what went wrong.
CREATE TABLE hook_delivery (
    seq       INTEGER PRIMARY KEY,
    hook_id   TEXT    NOT NULL REFERENCES hook (id) ON DELETE CASCADE,
    event_seq INTEGER NOT NULL,
    type      TEXT    NOT NULL,
    attempt   INTEGER NOT NULL,
    at        INTEGER NOT NULL,
    status    INTEGER NOT NULL,
    ms        INTEGER NOT NULL,
    error     TEXT
);
CREATE INDEX hook_delivery_by_hook ON hook_delivery (hook_id, seq);

-- Events asked to be sent again (`POST /hooks/{id}/deliveries/{delivery}/retry`), sent before the hook goes on.
CREATE TABLE hook_resend (
    hook_id   TEXT    NOT NULL REFERENCES hook (id) ON DELETE CASCADE,
    event_seq INTEGER NOT NULL,
    PRIMARY KEY (hook_id, event_seq)
);

-- Each history's feed key (`/feed/{key}.atom`), made when first asked for.
CREATE TABLE history_feed (
    owner INTEGER PRIMARY KEY,
    key   TEXT    NOT NULL UNIQUE
);
