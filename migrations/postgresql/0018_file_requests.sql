-- A file request: a link (`/r/{token}`) through which anyone sends files, each a share in its owner's `folder`. An
-- upload sent through one names it (`share_upload.request`), so that the files on their way count against
-- `max_files` as those `received` do.
CREATE TABLE share_request (
    id text PRIMARY KEY,
    owner bigint NOT NULL,
    token text NOT NULL UNIQUE,
    title text NOT NULL,
    folder text NOT NULL,
    max_files bigint,
    max_bytes bigint,
    expires_at bigint,
    code text,
    created_at bigint NOT NULL,
    closed_at bigint,
    received bigint NOT NULL DEFAULT 0
);
CREATE INDEX share_request_by_owner ON share_request (owner, created_at);
ALTER TABLE share_upload ADD COLUMN request text;
CREATE INDEX share_upload_by_request ON share_upload (request) WHERE request IS NOT NULL;
