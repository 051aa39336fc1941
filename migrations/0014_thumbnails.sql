-- Thumbnails: one small picture per record at most, made by the daemon from a picture sent for it.
--
-- The picture is kept in a table of its own, so that no listing reads its bytes; `share.thumbnail` says whether a
-- record has one, which listings show (`"thumbnail": true`) from the row they read anyway. Purging a record
-- forgets its thumbnail (the foreign key cascades). `tag` is the thumbnail's ETag.
ALTER TABLE share ADD COLUMN thumbnail INTEGER NOT NULL DEFAULT 0;

CREATE TABLE share_thumbnail (
    share_seq INTEGER PRIMARY KEY REFERENCES share (seq) ON DELETE CASCADE,
    tag       TEXT NOT NULL,
    image     BLOB NOT NULL
);
