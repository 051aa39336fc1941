-- A file request: a link (`/r/{token}`) through which anyone sends files, each a share in its owner's `folder`. An
-- upload sent through one names it (`share_upload.request`), so that the files on their way count against
-- `max_files` as those `received` do.
CREATE TABLE share_request (
    id TEXT PRIMARY KEY,
    owner INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    folder TEXT NOT NULL,
    max_files INTEGER,
    max_bytes INTEGER,
    expires_at INTEGER,
    code TEXT,
    created_at INTEGER NOT NULL,
    closed_at INTEGER,
    received INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX share_request_by_owner ON share_request (owner, created_at);
ALTER TABLE share_upload ADD COLUMN request TEXT;
CREATE INDEX share_upload_by_request ON share_upload (request) WHERE request IS NOT NULL;
