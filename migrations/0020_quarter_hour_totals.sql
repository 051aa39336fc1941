-- Running totals per UTC quarter hour: the count and bytes of each owner's live and trashed records of each type
-- created in it, kept by the triggers below as `share_total` (per day, 0011) is. Every zone's midnights fall on a
-- quarter hour, so statistics in any zone add up months, days and these rows, never the records of a cut day. A
-- quarter is `(created_at + 86400000000000) / 900000 - 96000000`: the bias of a million days rounds it down
-- before 1970 too. Bytes in two halves, as in `share_total`.
CREATE TABLE share_total_quarter (
    owner      INTEGER NOT NULL,
    trashed    INTEGER NOT NULL,
    quarter    INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, quarter, type)
) WITHOUT ROWID;

-- The totals as the records give them: what `shared check` compares them with and what a repair writes.
CREATE VIEW share_total_quarter_of_records AS
    SELECT owner, trashed_at IS NOT NULL AS trashed, (created_at + 86400000000000) / 900000 - 96000000 AS quarter, type,
        count(*) AS count, sum(size >> 32) AS bytes_high, sum(size & 4294967295) AS bytes_low
    FROM share GROUP BY 1, 2, 3, 4;

INSERT INTO share_total_quarter (owner, trashed, quarter, type, count, bytes_high, bytes_low)
    SELECT owner, trashed, quarter, type, count, bytes_high, bytes_low FROM share_total_quarter_of_records;

-- What records add to a quarter hour's totals (a positive count) or take from them (a negative one); a row that
-- falls to zero records is deleted.
CREATE VIEW share_total_quarter_change AS
    SELECT 0 AS owner, 0 AS trashed, 0 AS quarter, '' AS type, 0 AS count, 0 AS bytes_high, 0 AS bytes_low WHERE false;

CREATE TRIGGER share_total_quarter_change INSTEAD OF INSERT ON share_total_quarter_change BEGIN
    INSERT INTO share_total_quarter (owner, trashed, quarter, type, count, bytes_high, bytes_low)
        VALUES (new.owner, new.trashed, new.quarter, new.type, new.count, new.bytes_high, new.bytes_low)
        ON CONFLICT DO UPDATE SET
            count = count + excluded.count, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
    DELETE FROM share_total_quarter WHERE new.count < 0 AND count = 0 AND owner = new.owner AND trashed = new.trashed
        AND quarter = new.quarter AND type = new.type;
END;

-- An import puts this one aside and adds its records' totals at once (`QuarterHourTotals.add`).
CREATE TRIGGER share_total_quarter_insert AFTER INSERT ON share BEGIN
    INSERT INTO share_total_quarter_change VALUES (new.owner, new.trashed_at IS NOT NULL,
        (new.created_at + 86400000000000) / 900000 - 96000000, new.type, 1, new.size >> 32, new.size & 4294967295);
END;

CREATE TRIGGER share_total_quarter_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_total_quarter_change VALUES (old.owner, old.trashed_at IS NOT NULL,
        (old.created_at + 86400000000000) / 900000 - 96000000, old.type, -1, -(old.size >> 32), -(old.size & 4294967295));
END;

-- A rename may change the type, trashing and restoring the trash state, `shared assign` the owner: the record
-- leaves its old row and joins its new one.
CREATE TRIGGER share_total_quarter_update AFTER UPDATE OF owner, type, created_at, size, trashed_at ON share
WHEN old.owner IS NOT new.owner OR old.type IS NOT new.type OR old.created_at IS NOT new.created_at
    OR old.size IS NOT new.size OR (old.trashed_at IS NULL) IS NOT (new.trashed_at IS NULL)
BEGIN
    INSERT INTO share_total_quarter_change VALUES
        (old.owner, old.trashed_at IS NOT NULL, (old.created_at + 86400000000000) / 900000 - 96000000, old.type,
            -1, -(old.size >> 32), -(old.size & 4294967295)),
        (new.owner, new.trashed_at IS NOT NULL, (new.created_at + 86400000000000) / 900000 - 96000000, new.type,
            1, new.size >> 32, new.size & 4294967295);
END;
