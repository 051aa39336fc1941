-- Running totals per folder: the count and bytes of each history's live records in each folder, itself only (not
-- its subfolders), kept by the triggers below in the same transaction as every change to `share`. A folder's
-- subfolders with their totals (`GET /share/folders`) add up the rows of the folders below it, one row per
-- folder, instead of every record. Bytes are summed in two halves, as in `share_total` (0011).
CREATE TABLE share_folder_total (
    owner      INTEGER NOT NULL,
    folder     TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, folder)
) WITHOUT ROWID;

-- The totals as the records give them: what `shared check` compares them with, what a repair writes, and what an
-- import adds for its records.
CREATE VIEW share_folder_total_of_records AS
    SELECT owner, folder, count(*) AS count, sum(size >> 32) AS bytes_high, sum(size & 4294967295) AS bytes_low
    FROM share WHERE trashed_at IS NULL GROUP BY 1, 2;

INSERT INTO share_folder_total (owner, folder, count, bytes_high, bytes_low)
    SELECT owner, folder, count, bytes_high, bytes_low FROM share_folder_total_of_records;

-- What records add to a folder's totals (a positive count) or take from them (a negative one); a folder that
-- falls to zero records is deleted.
CREATE VIEW share_folder_total_change AS
    SELECT 0 AS owner, '' AS folder, 0 AS count, 0 AS bytes_high, 0 AS bytes_low WHERE false;

CREATE TRIGGER share_folder_total_change INSTEAD OF INSERT ON share_folder_total_change BEGIN
    INSERT INTO share_folder_total (owner, folder, count, bytes_high, bytes_low)
        VALUES (new.owner, new.folder, new.count, new.bytes_high, new.bytes_low)
        ON CONFLICT DO UPDATE SET
            count = count + excluded.count, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
    DELETE FROM share_folder_total WHERE new.count < 0 AND count = 0 AND owner = new.owner AND folder = new.folder;
END;

-- An import puts this one aside and adds its records' totals at once (`FolderTotals.add`).
CREATE TRIGGER share_folder_total_insert AFTER INSERT ON share WHEN new.trashed_at IS NULL BEGIN
    INSERT INTO share_folder_total_change VALUES (new.owner, new.folder, 1, new.size >> 32, new.size & 4294967295);
END;

CREATE TRIGGER share_folder_total_delete AFTER DELETE ON share WHEN old.trashed_at IS NULL BEGIN
    INSERT INTO share_folder_total_change VALUES (old.owner, old.folder, -1, -(old.size >> 32), -(old.size & 4294967295));
END;

-- A move, a trashing or restoring, and `shared assign`: the record leaves its old folder's row and joins its new one.
CREATE TRIGGER share_folder_total_update AFTER UPDATE OF owner, folder, size, trashed_at ON share
WHEN old.owner IS NOT new.owner OR old.folder IS NOT new.folder OR old.size IS NOT new.size
    OR (old.trashed_at IS NULL) IS NOT (new.trashed_at IS NULL)
BEGIN
    INSERT INTO share_folder_total_change
        SELECT old.owner, old.folder, -1, -(old.size >> 32), -(old.size & 4294967295) WHERE old.trashed_at IS NULL;
    INSERT INTO share_folder_total_change
        SELECT new.owner, new.folder, 1, new.size >> 32, new.size & 4294967295 WHERE new.trashed_at IS NULL;
END;
