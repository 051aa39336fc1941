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
