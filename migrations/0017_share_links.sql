-- Links: a share this service opens carries its link's secret (`link_token`, 128 random bits in base64url, which
-- `/s/{token}` looks up) and the link's limits: when it stops opening, after how many completed downloads, whether
-- its owner cut it off (`revoked_at`), and the extraction code a recipient gives with it. `source` is where a share
-- made on another service lives. Columns of `share` itself, so that a listing reads them from the row it reads
-- anyway; added columns default to NULL (or 0) without rewriting the table.
ALTER TABLE share ADD COLUMN link_token TEXT;
ALTER TABLE share ADD COLUMN source TEXT;
ALTER TABLE share ADD COLUMN expires_at INTEGER;
ALTER TABLE share ADD COLUMN max_downloads INTEGER;
ALTER TABLE share ADD COLUMN downloads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE share ADD COLUMN revoked_at INTEGER;
ALTER TABLE share ADD COLUMN code TEXT;

CREATE UNIQUE INDEX share_link_token ON share (link_token) WHERE link_token IS NOT NULL;

-- Each counted download of a share: when, from where (the address cut to its /24 or /48), with what (the user
-- agent's family), how many bytes, and whether it was whole. The owner reads it newest first; it goes with the share.
CREATE TABLE share_download (
    seq       INTEGER PRIMARY KEY,
    share_seq INTEGER NOT NULL REFERENCES share (seq) ON DELETE CASCADE,
    at        INTEGER NOT NULL,
    address   TEXT    NOT NULL,
    agent     TEXT    NOT NULL,
    bytes     INTEGER,
    complete  INTEGER NOT NULL
);
CREATE INDEX share_download_by_share ON share_download (share_seq, seq);

-- The expiry times of each history's links, which its tags follow: a listing's states change when one passes.
CREATE INDEX share_expiry ON share (owner, expires_at) WHERE expires_at IS NOT NULL;
