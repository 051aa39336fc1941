-- A finishing upload whose bytes are kept already points its share at that blob under the advisory lock of its
-- hash (`PostgresStore.blobLock`, 0x424C, with the hash's first 32 bits). Forgetting a blob whose last share goes
-- takes the same locks first, in the hashes' order (two purges never wait on each other), so that its look for a
-- share still pointing at the blob sees one made meanwhile: before, a purge could forget the blob under a finishing
-- upload, whose share then broke the foreign key (a 500).
DROP TRIGGER share_blob_release ON share;

CREATE OR REPLACE FUNCTION share_blob_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(16972, ('x' || prefix)::bit(32)::int)
    FROM (SELECT DISTINCT substr(blob.hash, 1, 8) AS prefix FROM share_blob AS blob
          WHERE blob.seq IN (SELECT removed.blob FROM removed) AND blob.hash IS NOT NULL ORDER BY 1) AS kept;
    -- A statement of its own, so a fresh snapshot: it sees the shares committed while it waited for the locks.
    DELETE FROM share_blob AS blob
    WHERE blob.seq IN (SELECT removed.blob FROM removed) AND NOT EXISTS (SELECT 1 FROM share WHERE share.blob = blob.seq);
    RETURN NULL;
END
$$;

CREATE TRIGGER share_blob_release AFTER DELETE ON share REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION share_blob_release();
