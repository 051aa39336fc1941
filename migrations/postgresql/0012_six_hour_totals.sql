-- Running totals per six UTC hours beside the hours' (0011), kept by the same function: a zone far from UTC midnight
-- (Adelaide, Chatham) cuts each day 10 to 14 hours from its edge, which were as many hours' rows per type; now at most
-- two six hours, five hours and three quarter hours.
CREATE TABLE share_total_six_hours (
    owner     bigint  NOT NULL,
    trashed   boolean NOT NULL,
    -- Six hours since 1970-01-01T00:00Z.
    six_hours bigint  NOT NULL,
    type      text    NOT NULL,
    count     bigint  NOT NULL,
    bytes     numeric NOT NULL,
    PRIMARY KEY (owner, trashed, six_hours, type)
) WITH (fillfactor = 70);

-- The six UTC hours of a quarter hour; the bias makes the division round down before 1970 too.
CREATE FUNCTION share_six_hours_of_quarter(quarter bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (quarter + 96000000) / 24 - 4000000
$$;

-- 0011's function, renamed: the trigger's calls go to the one below, which adds the same changes to the six hours'.
ALTER FUNCTION share_add_quarter_totals(bigint[], boolean[], bigint[], text[], bigint[], numeric[]) RENAME TO share_add_quarter_and_hour_rows;

CREATE FUNCTION share_add_quarter_totals(owners bigint[], trash_states boolean[], quarters bigint[], types text[], counts bigint[], sizes numeric[])
RETURNS void LANGUAGE sql AS $$
    SELECT share_add_quarter_and_hour_rows(owners, trash_states, quarters, types, counts, sizes);
    INSERT INTO share_total_six_hours AS total (owner, trashed, six_hours, type, count, bytes)
        SELECT o, t, share_six_hours_of_quarter(q), ty, sum(c), sum(s) FROM unnest(owners, trash_states, quarters, types, counts, sizes) AS change (o, t, q, ty, c, s)
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (owner, trashed, six_hours, type) DO UPDATE SET count = total.count + excluded.count, bytes = total.bytes + excluded.bytes;
    DELETE FROM share_total_six_hours AS total USING unnest(owners, trash_states, quarters, types) AS change (o, t, q, ty)
        WHERE total.count = 0 AND (total.owner, total.trashed, total.six_hours, total.type) = (change.o, change.t, share_six_hours_of_quarter(change.q), change.ty);
$$;

-- The six hours' totals made again from the quarter hours'.
CREATE FUNCTION share_rebuild_six_hour_totals() RETURNS void LANGUAGE sql AS $$
    DELETE FROM share_total_six_hours;
    INSERT INTO share_total_six_hours (owner, trashed, six_hours, type, count, bytes)
        SELECT owner, trashed, share_six_hours_of_quarter(quarter), type, sum(count), sum(bytes) FROM share_total_quarter
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
$$;

-- 0011's rebuild (renamed), which makes every other total, then the six hours'.
ALTER FUNCTION share_rebuild_totals() RENAME TO share_rebuild_totals_but_six_hours;

CREATE FUNCTION share_rebuild_totals() RETURNS void LANGUAGE sql AS $$
    SELECT share_rebuild_totals_but_six_hours();
    SELECT share_rebuild_six_hour_totals();
$$;

SELECT share_rebuild_six_hour_totals();

-- Filled at once: its reads are planned from its statistics now, not once autovacuum gets to it.
ANALYZE share_total_six_hours;
