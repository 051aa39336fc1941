-- Running totals per UTC quarter hour of each owner's live and trashed records of each type, kept by the trigger
-- function of `share_total` (0002, replaced below): every zone's midnights fall on a quarter hour, so statistics in
-- any zone add up months, days and these rows, never the records of a cut day (as SQLite's `share_total_quarter`).
-- A period's end reads a few dozen neighbouring rows: they are written in key order and updated in place (room is
-- left on each page), so that they share a page or two rather than one each (2.5 ms against 12.5 for the 61 ends of
-- a default view at a million records).
CREATE TABLE share_total_quarter (
    owner   bigint  NOT NULL,
    trashed boolean NOT NULL,
    -- Quarter hours since 1970-01-01T00:00Z.
    quarter bigint  NOT NULL,
    type    text    NOT NULL,
    count   bigint  NOT NULL,
    bytes   numeric NOT NULL,
    PRIMARY KEY (owner, trashed, quarter, type)
) WITH (fillfactor = 70);

-- The UTC quarter hour of a time in milliseconds since 1970; the bias makes the division round down before 1970 too.
CREATE FUNCTION share_utc_quarter(at bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (at + 86400000000000) / 900000 - 96000000
$$;

-- Adds changes to the quarter hours' totals, one element of the arrays per owner, trash state, quarter hour and type
-- (counts negative for records that left), and forgets the rows that fall to no record; rows in key order, so that
-- two statements changing the same rows wait for each other instead of deadlocking.
CREATE FUNCTION share_add_quarter_totals(owners bigint[], trash_states boolean[], quarters bigint[], types text[], counts bigint[], sizes numeric[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO share_total_quarter AS total (owner, trashed, quarter, type, count, bytes)
        SELECT o, t, q, ty, sum(c), sum(s) FROM unnest(owners, trash_states, quarters, types, counts, sizes) AS change (o, t, q, ty, c, s)
        GROUP BY o, t, q, ty ORDER BY o, t, q, ty
        ON CONFLICT (owner, trashed, quarter, type) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    DELETE FROM share_total_quarter AS total USING unnest(owners, trash_states, quarters, types) AS change (o, t, q, ty)
        WHERE total.count = 0 AND (total.owner, total.trashed, total.quarter, total.type) = (change.o, change.t, change.q, change.ty);
$$;

-- The trigger function of 0002, now summing the rows that left and the rows that came per owner, trash state,
-- quarter hour and type, once per statement, and adding them to the days' and months' totals and to the quarter
-- hours': one pass over the changed rows for all of them.
CREATE OR REPLACE FUNCTION share_keep_time_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owners bigint[];
    trash_states boolean[];
    quarters bigint[];
    days bigint[];
    types text[];
    counts bigint[];
    sizes numeric[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(owner), array_agg(trashed), array_agg(quarter), array_agg(type), array_agg(count), array_agg(bytes)
        INTO owners, trash_states, quarters, types, counts, sizes
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_quarter(created_at) AS quarter, type, count(*) AS count, sum(size) AS bytes
              FROM added GROUP BY 1, 2, 3, 4) AS change;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(owner), array_agg(trashed), array_agg(quarter), array_agg(type), array_agg(count), array_agg(bytes)
        INTO owners, trash_states, quarters, types, counts, sizes
        FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_quarter(created_at) AS quarter, type, -count(*) AS count, -sum(size) AS bytes
              FROM removed GROUP BY 1, 2, 3, 4) AS change;
    ELSE
        SELECT array_agg(owner), array_agg(trashed), array_agg(quarter), array_agg(type), array_agg(count), array_agg(bytes)
        INTO owners, trash_states, quarters, types, counts, sizes
        FROM (SELECT owner, trashed, quarter, type, sum(count)::bigint AS count, sum(bytes) AS bytes FROM (
                  SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_quarter(created_at) AS quarter, type, -1 AS count, -size AS bytes FROM removed
                  UNION ALL
                  SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_quarter(created_at) AS quarter, type, 1 AS count, size AS bytes FROM added
              ) AS side GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0 OR sum(bytes) <> 0) AS change;
    END IF;
    -- A quarter hour's day: the biased division, as in share_utc_day.
    SELECT array_agg((quarter + 96000000) / 96 - 1000000 ORDER BY position) INTO days FROM unnest(quarters) WITH ORDINALITY AS q (quarter, position);
    PERFORM share_add_time_totals(owners, trash_states, days, types, counts, sizes);
    PERFORM share_add_quarter_totals(owners, trash_states, quarters, types, counts, sizes);
    RETURN NULL;
END;
$$;

-- As in 0002, with the quarter hours' totals made too.
CREATE OR REPLACE FUNCTION share_rebuild_totals() RETURNS void LANGUAGE sql AS $$
    DELETE FROM share_owner_total;
    DELETE FROM share_folder_total;
    DELETE FROM share_total;
    DELETE FROM share_total_month;
    DELETE FROM share_total_quarter;
    INSERT INTO share_owner_total (owner, trashed, count, bytes)
        SELECT owner, trashed_at IS NOT NULL, count(*), sum(size) FROM share GROUP BY 1, 2;
    INSERT INTO share_folder_total (owner, folder, count, bytes)
        SELECT owner, folder, count(*), sum(size) FROM share WHERE trashed_at IS NULL GROUP BY 1, 2;
    INSERT INTO share_total_quarter (owner, trashed, quarter, type, count, bytes)
        SELECT owner, trashed_at IS NOT NULL, share_utc_quarter(created_at), type, count(*), sum(size) FROM share
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
    INSERT INTO share_total (owner, trashed, day, type, count, bytes)
        SELECT owner, trashed, (quarter + 96000000) / 96 - 1000000, type, sum(count), sum(bytes) FROM share_total_quarter
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
    INSERT INTO share_total_month (owner, trashed, month, type, count, bytes)
        SELECT owner, trashed, share_utc_month(day), type, sum(count), sum(bytes) FROM share_total GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
$$;

INSERT INTO share_total_quarter (owner, trashed, quarter, type, count, bytes)
    SELECT owner, trashed_at IS NOT NULL, share_utc_quarter(created_at), type, count(*), sum(size) FROM share
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
