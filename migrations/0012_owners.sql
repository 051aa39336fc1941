-- Per-user histories: each record belongs to an owner, the user whose history it is. Users are numbered in
-- `share_user` (a record holds the number: an index entry grows by a byte, where the name would add itself);
-- 0 is nobody: the one history of `histories = "shared"`, and records made before per-user histories until
-- `shared assign` gives them an owner. The owner leads every index, so that a listing's reads stay inside one
-- history.
CREATE TABLE share_user (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE
);

ALTER TABLE share ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;

DROP INDEX share_live_by_created;
CREATE INDEX share_live_by_created ON share (owner, created_at, id, name_key) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_name;
CREATE INDEX share_live_by_name ON share (owner, name_key, id, folder) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_size;
CREATE INDEX share_live_by_size ON share (owner, size, id, name_key, folder) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_folder;
CREATE INDEX share_live_by_folder ON share (owner, folder, created_at, id) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_type_created;
CREATE INDEX share_live_by_type_created ON share (owner, type, created_at, id) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_type_name;
CREATE INDEX share_live_by_type_name ON share (owner, type, name_key, id) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_type_size;
CREATE INDEX share_live_by_type_size ON share (owner, type, size, id) WHERE trashed_at IS NULL;
DROP INDEX share_trashed;
CREATE INDEX share_trashed ON share (owner, trashed_at) WHERE trashed_at IS NOT NULL;
-- Trash retention purges every history's old trash at once.
CREATE INDEX share_trashed_at ON share (trashed_at) WHERE trashed_at IS NOT NULL;
-- A history's records in the order they were stored (the rowid, seq, follows the owner in the index): exports, and
-- `shared assign`'s records of nobody. Partial on a condition every row meets but only those two reads state, so
-- that no other read takes it for the owner alone over an index that also serves its other filters.
CREATE INDEX share_by_owner ON share (owner) WHERE owner >= 0;

-- The running totals are kept per owner number too; until now every record was nobody's. (The change view and its
-- trigger of 0011 stay: they pass the number on to the new tables.)
DROP VIEW share_total_month_of_records;
DROP VIEW share_total_of_records;
DROP TABLE share_total;
DROP TABLE share_total_month;
CREATE TABLE share_total (
    owner      INTEGER NOT NULL,
    trashed    INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, day, type)
) WITHOUT ROWID;

CREATE TABLE share_total_month (
    owner      INTEGER NOT NULL,
    trashed    INTEGER NOT NULL,
    month      INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    bytes_high INTEGER NOT NULL,
    bytes_low  INTEGER NOT NULL,
    PRIMARY KEY (owner, trashed, month, type)
) WITHOUT ROWID;

CREATE VIEW share_total_of_records AS
    SELECT owner, trashed_at IS NOT NULL AS trashed, (created_at + 86400000000000) / 86400000 - 1000000 AS day, type,
        count(*) AS count, sum(size >> 32) AS bytes_high, sum(size & 4294967295) AS bytes_low
    FROM share GROUP BY 1, 2, 3, 4;

CREATE VIEW share_total_month_of_records AS
    SELECT owner, trashed, day - coalesce(CAST(strftime('%d', day * 86400, 'unixepoch') AS INTEGER), 1) + 1 AS month, type,
        sum(count) AS count, sum(bytes_high) AS bytes_high, sum(bytes_low) AS bytes_low
    FROM share_total_of_records GROUP BY 1, 2, 3, 4;

INSERT INTO share_total (owner, trashed, day, type, count, bytes_high, bytes_low)
    SELECT owner, trashed, day, type, count, bytes_high, bytes_low FROM share_total_of_records;
INSERT INTO share_total_month (owner, trashed, month, type, count, bytes_high, bytes_low)
    SELECT owner, trashed, month, type, count, bytes_high, bytes_low FROM share_total_month_of_records;

DROP TRIGGER share_total_insert;
CREATE TRIGGER share_total_insert AFTER INSERT ON share BEGIN
    INSERT INTO share_total_change VALUES
        (new.owner, new.trashed_at IS NOT NULL, new.created_at, new.type, 1, new.size >> 32, new.size & 4294967295);
END;

DROP TRIGGER share_total_delete;
CREATE TRIGGER share_total_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_total_change VALUES
        (old.owner, old.trashed_at IS NOT NULL, old.created_at, old.type, -1, -(old.size >> 32), -(old.size & 4294967295));
END;

-- The totals follow a record to its new owner when `shared assign` gives it one.
DROP TRIGGER share_total_update;
CREATE TRIGGER share_total_update AFTER UPDATE OF owner, type, created_at, size, trashed_at ON share
WHEN old.owner IS NOT new.owner OR old.type IS NOT new.type OR old.created_at IS NOT new.created_at
    OR old.size IS NOT new.size OR (old.trashed_at IS NULL) IS NOT (new.trashed_at IS NULL)
BEGIN
    INSERT INTO share_total_change VALUES
        (old.owner, old.trashed_at IS NOT NULL, old.created_at, old.type, -1, -(old.size >> 32), -(old.size & 4294967295)),
        (new.owner, new.trashed_at IS NOT NULL, new.created_at, new.type, 1, new.size >> 32, new.size & 4294967295);
END;
