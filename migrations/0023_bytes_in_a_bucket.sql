-- The bytes behind shares in a bucket of an object store (`[files] store = "s3"`) instead of files beside the
-- database. A blob there names its object; an upload there is a multipart upload, whose bytes held, parts (a line
-- each: number, ETag) and bytes after them, short of a part, are kept here.
ALTER TABLE share_blob ADD COLUMN object TEXT;
ALTER TABLE share_upload ADD COLUMN object TEXT;
ALTER TABLE share_upload ADD COLUMN multipart TEXT;
ALTER TABLE share_upload ADD COLUMN received INTEGER NOT NULL DEFAULT 0;
ALTER TABLE share_upload ADD COLUMN parts TEXT NOT NULL DEFAULT '';
ALTER TABLE share_upload ADD COLUMN next_part INTEGER NOT NULL DEFAULT 1;
ALTER TABLE share_upload ADD COLUMN tail BLOB NOT NULL DEFAULT x'';

-- Objects and multipart uploads nothing needs any more, deleted (or aborted) in the bucket once the transaction that
-- let them go has committed, again and again until the store says it is done.
CREATE TABLE share_object_freed (
    object    TEXT    NOT NULL,
    multipart TEXT    NOT NULL DEFAULT '',
    freed_at  INTEGER NOT NULL,
    PRIMARY KEY (object, multipart)
);
CREATE TRIGGER share_object_release AFTER DELETE ON share_blob WHEN old.object IS NOT NULL
BEGIN
    INSERT OR IGNORE INTO share_object_freed (object, freed_at)
    VALUES (old.object, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
