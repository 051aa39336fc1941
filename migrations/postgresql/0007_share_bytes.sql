-- The bytes behind shares, in the database, so that every node serves every file with no shared disk. Each
-- distinct content is one blob, named by its SHA-256 once its last byte is stored (NULL while an upload fills it),
-- kept as chunks of up to 1 MiB; shares point at it, so a file shared twice is stored once.
CREATE TABLE share_blob (
    seq  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hash text   UNIQUE,
    size bigint NOT NULL
);
CREATE TABLE share_blob_chunk (
    blob  bigint NOT NULL REFERENCES share_blob (seq) ON DELETE CASCADE,
    start bigint NOT NULL,
    bytes bytea  NOT NULL,
    PRIMARY KEY (blob, start)
);
-- Files are mostly compressed already: storing the chunks as they are spares the server trying.
ALTER TABLE share_blob_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;

ALTER TABLE share ADD COLUMN blob bigint REFERENCES share_blob (seq);
CREATE INDEX share_by_blob ON share (blob) WHERE blob IS NOT NULL;

-- Uploads in progress: the share each becomes once its last byte is stored, and the blob its chunks fill, each
-- chunk written in a transaction of its own (so an upload resumes through any node); no listing shows them.
CREATE TABLE share_upload (
    id            text   PRIMARY KEY,
    owner         bigint NOT NULL,
    length        bigint NOT NULL,
    received      bigint NOT NULL DEFAULT 0,
    blob          bigint NOT NULL REFERENCES share_blob (seq),
    name          text   NOT NULL,
    folder        text   NOT NULL,
    expires_at    bigint,
    max_downloads bigint,
    code          text,
    touched_at    bigint NOT NULL
);
CREATE INDEX share_upload_by_touch ON share_upload (touched_at);

-- Forgetting the last share of a blob forgets the blob and its chunks in the same transaction.
CREATE FUNCTION share_blob_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM share_blob WHERE seq = OLD.blob AND NOT EXISTS (SELECT 1 FROM share WHERE blob = OLD.blob);
    RETURN NULL;
END
$$;
CREATE TRIGGER share_blob_release AFTER DELETE ON share FOR EACH ROW WHEN (OLD.blob IS NOT NULL)
    EXECUTE FUNCTION share_blob_release();
