-- The bytes behind shares in a bucket of an object store (`[files] store = "s3"`) instead of share_blob_chunk.
-- A blob there names its object; an upload there is a multipart upload, whose parts (a line each: number, ETag)
-- and the bytes after them, short of a part, are kept here, so that it resumes through any node.
ALTER TABLE share_blob ADD COLUMN object text;
ALTER TABLE share_upload
    ADD COLUMN object    text,
    ADD COLUMN multipart text,
    ADD COLUMN parts     text    NOT NULL DEFAULT '',
    ADD COLUMN next_part integer NOT NULL DEFAULT 1,
    ADD COLUMN tail      bytea   NOT NULL DEFAULT '';

-- Objects and multipart uploads that nothing needs any more, deleted (or aborted) in the bucket once the transaction
-- that let them go has committed, again and again until the store says it is done.
CREATE TABLE share_object_freed (
    object    text   NOT NULL,
    multipart text   NOT NULL DEFAULT '',
    freed_at  bigint NOT NULL,
    PRIMARY KEY (object, multipart)
);
CREATE FUNCTION share_object_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO share_object_freed (object, freed_at)
    SELECT removed.object, (extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM removed WHERE removed.object IS NOT NULL
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER share_object_release AFTER DELETE ON share_blob REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION share_object_release();
