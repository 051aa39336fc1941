-- Running totals per UTC day and per UTC month of each owner's live and trashed records of each type, kept by the
-- triggers below in the same transaction as every change to `share`: statistics are added up from them (a few
-- rows per day, whatever the number of records), as from SQLite's `share_total` and `share_total_month`.

CREATE TABLE share_total (
    owner   bigint  NOT NULL,
    trashed boolean NOT NULL,
    -- Days since 1970-01-01 (UTC).
    day     bigint  NOT NULL,
    type    text    NOT NULL,
    count   bigint  NOT NULL,
    bytes   numeric NOT NULL,
    PRIMARY KEY (owner, trashed, day, type)
);

CREATE TABLE share_total_month (
    owner   bigint  NOT NULL,
    trashed boolean NOT NULL,
    -- The month's first day, in days since 1970-01-01 (UTC).
    month   bigint  NOT NULL,
    type    text    NOT NULL,
    count   bigint  NOT NULL,
    bytes   numeric NOT NULL,
    PRIMARY KEY (owner, trashed, month, type)
);

-- The UTC day of a time in milliseconds since 1970; the bias makes the division round down before 1970 too.
CREATE FUNCTION share_utc_day(at bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (at + 86400000000000) / 86400000 - 1000000
$$;

-- The first day of the UTC month that holds a day (both in days since 1970).
CREATE FUNCTION share_utc_month(day bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT date_trunc('month', (date '1970-01-01' + day::integer)::timestamp)::date - date '1970-01-01'
$$;

-- Adds changes to both totals, one element of the arrays per owner, trash state, day and type (counts negative for
-- records that left), and forgets the rows that fall to no record. Rows are taken in key order, so that two
-- statements changing the same rows wait for each other instead of deadlocking.
CREATE FUNCTION share_add_time_totals(owners bigint[], trash_states boolean[], days bigint[], types text[], counts bigint[], sizes numeric[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO share_total AS total (owner, trashed, day, type, count, bytes)
        SELECT o, t, d, ty, sum(c), sum(s) FROM unnest(owners, trash_states, days, types, counts, sizes) AS change (o, t, d, ty, c, s)
        GROUP BY o, t, d, ty ORDER BY o, t, d, ty
        ON CONFLICT (owner, trashed, day, type) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    INSERT INTO share_total_month AS total (owner, trashed, month, type, count, bytes)
        SELECT o, t, share_utc_month(d), ty, sum(c), sum(s) FROM unnest(owners, trash_states, days, types, counts, sizes) AS change (o, t, d, ty, c, s)
        GROUP BY o, t, share_utc_month(d), ty ORDER BY 1, 2, 3, 4
        ON CONFLICT (owner, trashed, month, type) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    DELETE FROM share_total AS total USING unnest(owners, trash_states, days, types) AS change (o, t, d, ty)
        WHERE total.count = 0 AND (total.owner, total.trashed, total.day, total.type) = (change.o, change.t, change.d, change.ty);
    DELETE FROM share_total_month AS total USING unnest(owners, trash_states, days, types) AS change (o, t, d, ty)
        WHERE total.count = 0 AND (total.owner, total.trashed, total.month, total.type) = (change.o, change.t, share_utc_month(change.d), change.ty);
$$;

-- Once per statement, whatever number of rows it changed: the rows that left and the rows that came, summed per
-- owner, trash state, day and type.
CREATE FUNCTION share_keep_time_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM share_add_time_totals(array_agg(owner), array_agg(trashed), array_agg(day), array_agg(type), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type, count(*) AS count, sum(size) AS bytes
              FROM added GROUP BY 1, 2, 3, 4) AS change;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM share_add_time_totals(array_agg(owner), array_agg(trashed), array_agg(day), array_agg(type), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type, -count(*) AS count, -sum(size) AS bytes
              FROM removed GROUP BY 1, 2, 3, 4) AS change;
    ELSE
        PERFORM share_add_time_totals(array_agg(owner), array_agg(trashed), array_agg(day), array_agg(type), array_agg(count), array_agg(bytes))
        FROM (SELECT owner, trashed, day, type, sum(count)::bigint AS count, sum(bytes) AS bytes FROM (
                  SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type, -1 AS count, -size AS bytes FROM removed
                  UNION ALL
                  SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type, 1 AS count, size AS bytes FROM added
              ) AS side GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0 OR sum(bytes) <> 0) AS change;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER share_time_totals_insert AFTER INSERT ON share REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_time_totals();
CREATE TRIGGER share_time_totals_delete AFTER DELETE ON share REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_time_totals();
CREATE TRIGGER share_time_totals_update AFTER UPDATE ON share REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION share_keep_time_totals();

-- Every running total made again from the records, in one pass each: for the records already held, and after a
-- bulk copy that ran without the totals' triggers (`shared migrate`: a trigger per chunk, in one transaction, would
-- leave each total row a version per chunk to step over).
CREATE FUNCTION share_rebuild_totals() RETURNS void LANGUAGE sql AS $$
    DELETE FROM share_owner_total;
    DELETE FROM share_folder_total;
    DELETE FROM share_total;
    DELETE FROM share_total_month;
    INSERT INTO share_owner_total (owner, trashed, count, bytes)
        SELECT owner, trashed_at IS NOT NULL, count(*), sum(size) FROM share GROUP BY 1, 2;
    INSERT INTO share_folder_total (owner, folder, count, bytes)
        SELECT owner, folder, count(*), sum(size) FROM share WHERE trashed_at IS NULL GROUP BY 1, 2;
    INSERT INTO share_total (owner, trashed, day, type, count, bytes)
        SELECT owner, trashed_at IS NOT NULL, share_utc_day(created_at), type, count(*), sum(size) FROM share GROUP BY 1, 2, 3, 4;
    INSERT INTO share_total_month (owner, trashed, month, type, count, bytes)
        SELECT owner, trashed, share_utc_month(day), type, sum(count), sum(bytes) FROM share_total GROUP BY 1, 2, 3, 4;
$$;

SELECT share_rebuild_totals();
