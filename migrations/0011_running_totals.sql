-- Running totals: the count and bytes of the records of each owner, trash state, type and UTC day, kept by the
-- triggers below in the same transaction as every change to `share`. Statistics and quotas add up these few rows
-- instead of every record. Bytes are summed as two halves (the size's high 32 bits, its low 32 bits): sizes go
-- up to 2^63, and neither half's sum can overflow. `owner` is '' for records that belong to nobody.
--
-- A day is `(created_at + 86400000000000) / 86400000 - 1000000`: the UTC day number since 1970-01-01, rounded
-- down for times before 1970 too (the bias of a million days makes the division's operand positive).
CREATE TABLE share_total (
    owner      TEXT    NOT NULL,
    trashed    INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    day        INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, type, day)
) WITHOUT ROWID;

-- The totals as the records give them: what the triggers keep, what `shared check` compares them with and what
-- a repair writes.
CREATE VIEW share_total_of_records AS
    SELECT '' AS owner, trashed_at IS NOT NULL AS trashed, type, (created_at + 86400000000000) / 86400000 - 1000000 AS day,
        count(*) AS count, sum(size >> 32) AS bytes_high, sum(size & 4294967295) AS bytes_low
    FROM share GROUP BY 2, 3, 4;

INSERT INTO share_total (owner, trashed, type, day, count, bytes_high, bytes_low)
    SELECT owner, trashed, type, day, count, bytes_high, bytes_low FROM share_total_of_records;

CREATE TRIGGER share_total_insert AFTER INSERT ON share BEGIN
    INSERT INTO share_total (owner, trashed, type, day, count, bytes_high, bytes_low)
        VALUES ('', new.trashed_at IS NOT NULL, new.type, (new.created_at + 86400000000000) / 86400000 - 1000000, 1,
            new.size >> 32, new.size & 4294967295)
        ON CONFLICT DO UPDATE SET
            count = count + 1, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
END;

CREATE TRIGGER share_total_delete AFTER DELETE ON share BEGIN
    UPDATE share_total SET count = count - 1, bytes_high = bytes_high - (old.size >> 32), bytes_low = bytes_low - (old.size & 4294967295)
        WHERE owner = '' AND trashed = (old.trashed_at IS NOT NULL) AND type = old.type
            AND day = (old.created_at + 86400000000000) / 86400000 - 1000000;
    DELETE FROM share_total
        WHERE owner = '' AND trashed = (old.trashed_at IS NOT NULL) AND type = old.type
            AND day = (old.created_at + 86400000000000) / 86400000 - 1000000 AND count = 0;
END;

-- A rename may change the type, trashing and restoring the trash state; the update takes the record out of its
-- old row and into its new one.
CREATE TRIGGER share_total_update AFTER UPDATE OF type, created_at, size, trashed_at ON share
WHEN old.type IS NOT new.type OR old.created_at IS NOT new.created_at OR old.size IS NOT new.size
    OR (old.trashed_at IS NULL) IS NOT (new.trashed_at IS NULL)
BEGIN
    UPDATE share_total SET count = count - 1, bytes_high = bytes_high - (old.size >> 32), bytes_low = bytes_low - (old.size & 4294967295)
        WHERE owner = '' AND trashed = (old.trashed_at IS NOT NULL) AND type = old.type
            AND day = (old.created_at + 86400000000000) / 86400000 - 1000000;
    DELETE FROM share_total
        WHERE owner = '' AND trashed = (old.trashed_at IS NOT NULL) AND type = old.type
            AND day = (old.created_at + 86400000000000) / 86400000 - 1000000 AND count = 0;
    INSERT INTO share_total (owner, trashed, type, day, count, bytes_high, bytes_low)
        VALUES ('', new.trashed_at IS NOT NULL, new.type, (new.created_at + 86400000000000) / 86400000 - 1000000, 1,
            new.size >> 32, new.size & 4294967295)
        ON CONFLICT DO UPDATE SET
            count = count + 1, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low;
END;
