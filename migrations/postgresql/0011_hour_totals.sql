-- Running totals per UTC hour beside the quarter hours' (0009), kept by the same function: a period's end in a zone
-- a whole number of hours from UTC reads the four to twelve hours of the day it cuts, and one a quarter or half hour
-- off reads those hours and at most three quarter hours, not up to 48 quarter hours (half the rows, a third less of
-- the server's time for the default view's 61 ends at a million records).
CREATE TABLE share_total_hour (
    owner   bigint  NOT NULL,
    trashed boolean NOT NULL,
    -- Hours since 1970-01-01T00:00Z.
    hour    bigint  NOT NULL,
    type    text    NOT NULL,
    count   bigint  NOT NULL,
    bytes   numeric NOT NULL,
    PRIMARY KEY (owner, trashed, hour, type)
) WITH (fillfactor = 70);

-- The UTC hour of a quarter hour (share_utc_quarter's); the bias makes the division round down before 1970 too.
CREATE FUNCTION share_hour_of_quarter(quarter bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (quarter + 96000000) / 4 - 24000000
$$;

-- 0009's function, renamed: the trigger's calls go to the one below, which adds the same changes to the hours' totals.
ALTER FUNCTION share_add_quarter_totals(bigint[], boolean[], bigint[], text[], bigint[], numeric[]) RENAME TO share_add_quarter_rows;

CREATE FUNCTION share_add_quarter_totals(owners bigint[], trash_states boolean[], quarters bigint[], types text[], counts bigint[], sizes numeric[])
RETURNS void LANGUAGE sql AS $$
    SELECT share_add_quarter_rows(owners, trash_states, quarters, types, counts, sizes);
    INSERT INTO share_total_hour AS total (owner, trashed, hour, type, count, bytes)
        SELECT o, t, share_hour_of_quarter(q), ty, sum(c), sum(s) FROM unnest(owners, trash_states, quarters, types, counts, sizes) AS change (o, t, q, ty, c, s)
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (owner, trashed, hour, type) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    DELETE FROM share_total_hour AS total USING unnest(owners, trash_states, quarters, types) AS change (o, t, q, ty)
        WHERE total.count = 0 AND (total.owner, total.trashed, total.hour, total.type) = (change.o, change.t, share_hour_of_quarter(change.q), change.ty);
$$;

-- The hours' totals made again from the quarter hours'.
CREATE FUNCTION share_rebuild_hour_totals() RETURNS void LANGUAGE sql AS $$
    DELETE FROM share_total_hour;
    INSERT INTO share_total_hour (owner, trashed, hour, type, count, bytes)
        SELECT owner, trashed, share_hour_of_quarter(quarter), type, sum(count), sum(bytes) FROM share_total_quarter
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
$$;

-- 0009's rebuild (renamed), which makes every other total from the records, then the hours'.
ALTER FUNCTION share_rebuild_totals() RENAME TO share_rebuild_totals_but_hours;

CREATE FUNCTION share_rebuild_totals() RETURNS void LANGUAGE sql AS $$
    SELECT share_rebuild_totals_but_hours();
    SELECT share_rebuild_hour_totals();
$$;

SELECT share_rebuild_hour_totals();

-- Filled at once: its reads are planned from its statistics now, not once autovacuum gets to it.
ANALYZE share_total_hour;
