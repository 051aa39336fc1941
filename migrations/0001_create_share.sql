-- The share history. Times are milliseconds since 1970-01-01 UTC.
CREATE TABLE share (
    seq        INTEGER PRIMARY KEY,
    -- Share ids are ASCII, so NOCASE gives case-insensitive lookups and uniqueness.
    id         TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    name       TEXT    NOT NULL,
    -- NFC + Unicode lowercase of name: what search and name sorting compare.
    name_key   TEXT    NOT NULL,
    folder     TEXT    NOT NULL DEFAULT '/',
    created_at INTEGER NOT NULL,
    size       INTEGER NOT NULL CHECK (size >= 0),
    type       TEXT    NOT NULL,
    -- Set while the record is in the trash.
    trashed_at INTEGER
);

-- Keyset paging for each sort, over live records; ties broken by id.
CREATE INDEX share_live_by_created ON share (created_at, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_name ON share (name_key, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_size ON share (size, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_folder ON share (folder, created_at, id) WHERE trashed_at IS NULL;
CREATE INDEX share_trashed ON share (trashed_at) WHERE trashed_at IS NOT NULL;
