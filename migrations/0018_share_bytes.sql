-- The bytes behind shares. Each distinct content is one blob, named by its SHA-256 and kept as a file beside the
-- database (`share.db.files/blobs/ab/abcd…`); shares point at it, so a file shared twice is stored once.
CREATE TABLE share_blob (
    seq  INTEGER PRIMARY KEY,
    hash TEXT    NOT NULL UNIQUE,
    size INTEGER NOT NULL
);
ALTER TABLE share ADD COLUMN blob INTEGER REFERENCES share_blob (seq);
CREATE INDEX share_by_blob ON share (blob) WHERE blob IS NOT NULL;

-- Forgetting the last share of a blob forgets the blob in the same transaction, and queues its file, which is
-- deleted once that transaction has committed: a crash in between leaves the queue, read again at start-up.
CREATE TABLE share_blob_freed (hash TEXT PRIMARY KEY);
CREATE TRIGGER share_blob_release AFTER DELETE ON share
WHEN old.blob IS NOT NULL AND NOT EXISTS (SELECT 1 FROM share WHERE blob = old.blob)
BEGIN
    INSERT OR IGNORE INTO share_blob_freed (hash) SELECT hash FROM share_blob WHERE seq = old.blob;
    DELETE FROM share_blob WHERE seq = old.blob;
END;

-- Uploads in progress: the share each becomes once its last byte is stored (its bytes so far are the file
-- `share.db.files/uploads/{id}`), nothing of which any listing shows.
CREATE TABLE share_upload (
    id            TEXT    PRIMARY KEY,
    owner         INTEGER NOT NULL,
    length        INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    folder        TEXT    NOT NULL,
    expires_at    INTEGER,
    max_downloads INTEGER,
    code          TEXT,
    touched_at    INTEGER NOT NULL
);
CREATE INDEX share_upload_by_touch ON share_upload (touched_at);
