-- Running totals: the count and bytes of the records of each owner, trash state, UTC day (`share_total`) and UTC
-- month (`share_total_month`), and type, kept by the triggers below in the same transaction as every change to
-- `share`. Statistics and quotas add up these few rows instead of every record. Bytes are summed as two halves
-- (the size's high 32 bits, its low 32 bits): sizes go up to 2^63, and neither half's sum can overflow. `owner`
-- is '' for records that belong to nobody.
--
-- A day is `(created_at + 86400000000000) / 86400000 - 1000000`: the UTC day number since 1970-01-01, rounded
-- down for times before 1970 too (the bias of a million days makes the division's operand positive). A month is
-- the day number of its first day: `day - coalesce(CAST(strftime('%d', day * 86400, 'unixepoch') AS INTEGER), 1) + 1`.
CREATE TABLE share_total (
    owner      TEXT    NOT NULL,
    trashed    INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, day, type)
) WITHOUT ROWID;

CREATE TABLE share_total_month (
    owner      TEXT    NOT NULL,
    trashed    INTEGER NOT NULL,
    month      INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, month, type)
) WITHOUT ROWID;

-- The totals as the records give them: what the triggers keep, what `shared check` compares them with and what
-- a repair writes.
CREATE VIEW share_total_of_records AS
    SELECT '' AS owner, trashed_at IS NOT NULL AS trashed, (created_at + 86400000000000) / 86400000 - 1000000 AS day, type,
        count(*) AS count, sum(size >> 32) AS bytes_high, sum(size & 4294967295) AS bytes_low
    FROM share GROUP BY 2, 3, 4;

CREATE VIEW share_total_month_of_records AS
    SELECT owner, trashed, day - coalesce(CAST(strftime('%d', day * 86400, 'unixepoch') AS INTEGER), 1) + 1 AS month, type,
        sum(count) AS count, sum(bytes_high) AS bytes_high, sum(bytes_low) AS bytes_low
    FROM share_total_of_records GROUP BY 1, 2, 3, 4;

INSERT INTO share_total (owner, trashed, day, type, count, bytes_high, bytes_low)
    SELECT owner, trashed, day, type, count, bytes_high, bytes_low FROM share_total_of_records;
INSERT INTO share_total_month (owner, trashed, month, type, count, bytes_high, bytes_low)
    SELECT owner, trashed, month, type, count, bytes_high, bytes_low FROM share_total_month_of_records;

-- What records created at `created_at` add to the totals (a positive count) or take from them (a negative one),
-- written into this view so that its trigger, the one place that knows the rows, changes their day's and their
-- month's; a row that falls to zero records is deleted. One record at a time from the triggers on `share`, a
-- day's worth at a time from an import.
CREATE VIEW share_total_change AS
    SELECT '' AS owner, 0 AS trashed, 0 AS created_at, '' AS type, 0 AS count, 0 AS bytes_high, 0 AS bytes_low WHERE false;

CREATE TRIGGER share_total_change INSTEAD OF INSERT ON share_total_change BEGIN
    INSERT INTO share_total (owner, trashed, day, type, count, bytes_high, bytes_low)
        VALUES (new.owner, new.trashed, (new.created_at + 86400000000000) / 86400000 - 1000000, new.type, new.count,
            new.bytes_high, new.bytes_low)
        ON CONFLICT DO UPDATE SET
            count = count + excluded.count, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
    INSERT INTO share_total_month (owner, trashed, month, type, count, bytes_high, bytes_low)
        SELECT new.owner, new.trashed, day - coalesce(CAST(strftime('%d', day * 86400, 'unixepoch') AS INTEGER), 1) + 1, new.type, new.count,
            new.bytes_high, new.bytes_low
        FROM (SELECT (new.created_at + 86400000000000) / 86400000 - 1000000 AS day) WHERE true
        ON CONFLICT DO UPDATE SET
            count = count + excluded.count, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
    DELETE FROM share_total WHERE new.count < 0 AND count = 0 AND owner = new.owner AND trashed = new.trashed
        AND day = (new.created_at + 86400000000000) / 86400000 - 1000000 AND type = new.type;
    DELETE FROM share_total_month WHERE new.count < 0 AND count = 0 AND owner = new.owner AND trashed = new.trashed
        AND month = (SELECT day - coalesce(CAST(strftime('%d', day * 86400, 'unixepoch') AS INTEGER), 1) + 1
            FROM (SELECT (new.created_at + 86400000000000) / 86400000 - 1000000 AS day))
        AND type = new.type;
END;

CREATE TRIGGER share_total_insert AFTER INSERT ON share BEGIN
    INSERT INTO share_total_change VALUES ('', new.trashed_at IS NOT NULL, new.created_at, new.type, 1, new.size >> 32, new.size & 4294967295);
END;

CREATE TRIGGER share_total_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_total_change VALUES ('', old.trashed_at IS NOT NULL, old.created_at, old.type, -1, -(old.size >> 32), -(old.size & 4294967295));
END;

-- A rename may change the type, trashing and restoring the trash state: the record leaves its old rows and joins
-- its new ones.
CREATE TRIGGER share_total_update AFTER UPDATE OF type, created_at, size, trashed_at ON share
WHEN old.type IS NOT new.type OR old.created_at IS NOT new.created_at OR old.size IS NOT new.size
    OR (old.trashed_at IS NULL) IS NOT (new.trashed_at IS NULL)
BEGIN
    INSERT INTO share_total_change VALUES
        ('', old.trashed_at IS NOT NULL, old.created_at, old.type, -1, -(old.size >> 32), -(old.size & 4294967295)),
        ('', new.trashed_at IS NOT NULL, new.created_at, new.type, 1, new.size >> 32, new.size & 4294967295);
END;
