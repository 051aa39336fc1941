-- Links: a share this service opens carries its link's secret (`link_token`, 128 random bits in base64url, which
-- `/s/{token}` looks up) and the link's limits: when it stops opening, after how many completed downloads, whether
-- its owner cut it off (`revoked_at`), and the extraction code a recipient gives with it. `source` is where a share
-- made on another service lives. As in SQLite, columns of `share` itself; adding them rewrites nothing.
ALTER TABLE share
    ADD COLUMN link_token text,
    ADD COLUMN source text,
    ADD COLUMN expires_at bigint,
    ADD COLUMN max_downloads bigint,
    ADD COLUMN downloads bigint NOT NULL DEFAULT 0,
    ADD COLUMN revoked_at bigint,
    ADD COLUMN code text;

CREATE UNIQUE INDEX share_link_token ON share (link_token) WHERE link_token IS NOT NULL;

-- An import stages the same columns.
ALTER TABLE share_import
    ADD COLUMN link_token text,
    ADD COLUMN source text,
    ADD COLUMN expires_at bigint,
    ADD COLUMN max_downloads bigint,
    ADD COLUMN downloads bigint NOT NULL DEFAULT 0,
    ADD COLUMN revoked_at bigint,
    ADD COLUMN code text;

-- Each counted download of a share: when, from where (the address cut to its /24 or /48), with what (the user
-- agent's family), how many bytes, and whether it was whole. The owner reads it newest first; it goes with the share.
CREATE TABLE share_download (
    seq       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    share_seq bigint  NOT NULL REFERENCES share (seq) ON DELETE CASCADE,
    at        bigint  NOT NULL,
    address   text    NOT NULL,
    agent     text    NOT NULL,
    bytes     bigint,
    complete  boolean NOT NULL
);
CREATE INDEX share_download_by_share ON share_download (share_seq, seq);

-- The expiry times of each history's links, which its tags follow: a listing's states change when one passes.
CREATE INDEX share_expiry ON share (owner, expires_at) WHERE expires_at IS NOT NULL;
