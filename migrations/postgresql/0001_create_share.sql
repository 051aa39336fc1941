-- The share history on PostgreSQL: the same records, events, thumbnails and running totals as the SQLite
-- schema (migrations/*.sql), in PostgreSQL's own terms. Times are milliseconds since 1970-01-01 UTC.
--
-- Text that listings compare (the folded name, the folder, the folded id) uses the "C" collation: bytes in
-- UTF-8 order, as SQLite compares them, so that both stores give the same order and accept each other's cursors.

-- Name search through trigrams (a trusted extension: the database's owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The users whose histories the records are in; 0, in no row, is nobody.
CREATE TABLE share_user (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE
);

CREATE TABLE share (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner      bigint  NOT NULL DEFAULT 0,
    id         text    NOT NULL,
    -- The id with ASCII letters folded (ids are ASCII): what makes ids unique case-insensitively, on every node.
    id_key     text    NOT NULL COLLATE "C" UNIQUE,
    name       text    NOT NULL,
    -- NFC + Unicode lowercase of name: what search and name sorting compare.
    name_key   text    NOT NULL COLLATE "C",
    folder     text    NOT NULL COLLATE "C",
    created_at bigint  NOT NULL,
    size       bigint  NOT NULL CHECK (size >= 0),
    type       text    NOT NULL,
    trashed_at bigint,
    thumbnail  boolean NOT NULL DEFAULT false
);

-- Keyset paging for each sort within one history's live records, and within a type or a folder; ties by id.
CREATE INDEX share_live_by_created ON share (owner, created_at, id_key) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_name ON share (owner, name_key, id_key) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_size ON share (owner, size, id_key) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_folder ON share (owner, folder, created_at, id_key) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_type ON share (owner, type, created_at, id_key) WHERE trashed_at IS NULL;
CREATE INDEX share_trashed ON share (owner, trashed_at) WHERE trashed_at IS NOT NULL;
-- Trash retention purges every history's old trash at once.
CREATE INDEX share_trashed_at ON share (trashed_at) WHERE trashed_at IS NOT NULL;
-- A history's records in the order they were stored: exports, and the records of nobody `shared assign` gives.
-- Partial on a condition every row meets but only those two reads state (`seq > 0`), so that no listing takes
-- it for the owner alone over an index that also serves its other filters.
CREATE INDEX share_by_owner ON share (owner, seq) WHERE seq > 0;
-- Name search: `name_key LIKE '%text%'` (with % and _ escaped) is answered from the trigrams of the folded names.
CREATE INDEX share_name_trigrams ON share USING gin (name_key gin_trgm_ops);

-- Text of one or two characters holds no trigram: it is found through the names' characters and pairs of
-- characters instead (`share_short_grams(name_key) @> ARRAY[text]`), so that no search reads the whole table.
CREATE FUNCTION share_short_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT substr(name, position, width)), '{}')
    FROM generate_series(1, length(name)) AS position, (VALUES (1), (2)) AS gram (width)
    WHERE position + width - 1 <= length(name)
$$;
CREATE INDEX share_name_short_grams ON share USING gin (share_short_grams(name_key));

-- The history of each record, appended in the same transaction as each change; purging a record forgets it.
CREATE TABLE share_event (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    share_seq  bigint NOT NULL REFERENCES share (seq) ON DELETE CASCADE,
    at         bigint NOT NULL,
    -- created, imported, renamed, moved, trashed, restored
    action     text   NOT NULL,
    from_value text,
    to_value   text,
    -- The label of the token that made the change, never the token.
    by         text   NOT NULL
);
CREATE INDEX share_event_by_share ON share_event (share_seq, seq);

-- At most one thumbnail per record, kept apart so that no listing reads its bytes; `tag` is its ETag.
CREATE TABLE share_thumbnail (
    share_seq bigint PRIMARY KEY REFERENCES share (seq) ON DELETE CASCADE,
    tag       text  NOT NULL,
    image     bytea NOT NULL
);

-- The history's version and epoch, which ETags are made of: every change raises the version in its own
-- transaction, so every node that serves the database gives the same tag for the same history.
CREATE TABLE share_history (
    version bigint NOT NULL,
    epoch   text   NOT NULL
);
INSERT INTO share_history (version, epoch) VALUES (0, substr(md5(random()::text), 1, 12));

-- Records of an import in progress, per import, until it finishes (they join `share` together) or is abandoned.
CREATE UNLOGGED TABLE share_import (
    import     text    NOT NULL,
    line       bigint  NOT NULL,
    id         text    NOT NULL,
    id_key     text    NOT NULL COLLATE "C",
    name       text    NOT NULL,
    name_key   text    NOT NULL COLLATE "C",
    folder     text    NOT NULL COLLATE "C",
    created_at bigint  NOT NULL,
    size       bigint  NOT NULL,
    type       text    NOT NULL,
    trashed_at bigint,
    thumbnail_tag text,
    thumbnail  bytea,
    started_at bigint  NOT NULL,
    PRIMARY KEY (import, id_key)
);

-- Running totals, kept by the triggers below in the same transaction as every change to `share`: each owner's
-- live and trashed records (quotas, `GET /me`, `GET /users`), and each owner's live records per folder, the folder
-- itself only (`GET /share/folders` adds up the folders below one).
CREATE TABLE share_owner_total (
    owner   bigint  NOT NULL,
    trashed boolean NOT NULL,
    count   bigint  NOT NULL,
    bytes   numeric NOT NULL,
    PRIMARY KEY (owner, trashed)
);

CREATE TABLE share_folder_total (
    owner  bigint  NOT NULL,
    folder text    NOT NULL COLLATE "C",
    count  bigint  NOT NULL,
    bytes  numeric NOT NULL,
    PRIMARY KEY (owner, folder)
);

-- Adds changes to the totals, one element of the arrays per owner, trash state and folder (counts negative for
-- records that left), and forgets the rows that fall to no record.
CREATE FUNCTION share_add_totals(owners bigint[], trashed boolean[], folders text[], counts bigint[], sizes numeric[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO share_owner_total AS total (owner, trashed, count, bytes)
        SELECT o, t, sum(c), sum(s) FROM unnest(owners, trashed, counts, sizes) AS change (o, t, c, s) GROUP BY o, t
        ON CONFLICT (owner, trashed) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    INSERT INTO share_folder_total AS total (owner, folder, count, bytes)
        SELECT o, f, sum(c), sum(s) FROM unnest(owners, trashed, folders, counts, sizes) AS change (o, t, f, c, s)
        WHERE NOT t GROUP BY o, f
        ON CONFLICT (owner, folder) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    DELETE FROM share_owner_total WHERE count = 0;
    DELETE FROM share_folder_total AS total USING unnest(owners, folders) AS change (o, f)
        WHERE total.count = 0 AND total.owner = change.o AND total.folder = change.f;
$$;

-- Once per statement, whatever number of rows it changed (an import's million, a batch's): the rows that left
-- (`removed`) and the rows that came (`added`), summed per owner, trash state and folder.
CREATE FUNCTION share_keep_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM share_add_totals(array_agg(owner), array_agg(trashed), array_agg(folder), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, folder, count(*) AS count, sum(size) AS bytes
              FROM added GROUP BY 1, 2, 3) AS change;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM share_add_totals(array_agg(owner), array_agg(trashed), array_agg(folder), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, folder, -count(*) AS count, -sum(size) AS bytes
              FROM removed GROUP BY 1, 2, 3) AS change;
    ELSE
        PERFORM share_add_totals(array_agg(owner), array_agg(trashed), array_agg(folder), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed, folder, sum(count)::bigint AS count, sum(bytes) AS bytes FROM (
                  SELECT owner, trashed_at IS NOT NULL AS trashed, folder, -1 AS count, -size AS bytes FROM removed
                  UNION ALL
                  SELECT owner, trashed_at IS NOT NULL AS trashed, folder, 1 AS count, size AS bytes FROM added
              ) AS side GROUP BY 1, 2, 3 HAVING sum(count) <> 0 OR sum(bytes) <> 0) AS change;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER share_totals_insert AFTER INSERT ON share REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_totals();
CREATE TRIGGER share_totals_delete AFTER DELETE ON share REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_totals();
CREATE TRIGGER share_totals_update AFTER UPDATE ON share REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_totals();
