import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Statistics from PostgreSQL's running totals (`share_total_month` per UTC month, `share_total` per UTC day,
/// `share_total_six_hours`, `share_total_hour` and `share_total_quarter` per six UTC hours, hour and quarter hour, kept
/// by triggers with every change), added up as `TotalsPlan` says, as SQLite's are: the plan's reads of each kind in one
/// statement.
struct PostgresTotalsStatistics {
    let query: ShareQuery
    /// Whose history: the number its records carry (`PostgresOwnerNumbers`).
    let owner: Int64

    /// The statistics `by` a period (nil: the one that fits their span), in two statements: what the plan rests on,
    /// then what it reads.
    func fetch(
        by period: StatsPeriod?, _ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, logger: Logger
    ) async throws -> ShareStats {
        let plan = StatisticsFromTotals(query)
        let statement = try basisStatement(plan, matching: period == nil)
        guard let basis = try await basis(reading: try await prepared.rows(statement, on: connection, logger: logger)) else {
            return ShareStats.empty(by: period)
        }
        if period == nil && basis.matched == nil { return ShareStats.empty(by: nil) }
        let answer = plan.plan(by: period, matched: basis.matched, months: basis.months)
        return answer.stats(reading: try await sums(of: answer.reads, connection, prepared, logger: logger))
    }

    /// Appends the conditions on the totals' owner, trash state and types.
    private func appendTotalsConditions(to sql: inout BoundSQL) throws {
        sql.append(" WHERE owner = ")
        sql.bind(owner)
        sql.append(" AND trashed = ")
        sql.bind(query.trashed)
        if let types = query.types {
            sql.append(" AND type = ANY(")
            try sql.bind(array: types.map(\.rawValue).sorted())
            sql.append(")")
        }
    }

    /// What the plan rests on: the monthly totals' rows of the months from the first through the last UTC day the
    /// totals hold a matching record on, and, when `matching`, the creation times of the first and the last matching
    /// records, found on those days (or, the window's ends leaving a day empty, in the whole window).
    func basisStatement(_ plan: StatisticsFromTotals, matching: Bool) throws -> BoundSQL {
        var sql = BoundSQL("WITH span AS MATERIALIZED (SELECT first, last")
        if matching, let window = plan.windowQuery {
            for (aggregate, day) in [("min", "first"), ("max", "last")] {
                sql.append(", CASE WHEN day.\(day) IS NOT NULL THEN coalesce((SELECT \(aggregate)(created_at) FROM share WHERE ")
                try PostgresFilter.append(window, owner: owner, to: &sql)
                sql.append(" AND created_at >= day.\(day) * \(Timestamp.millisecondsPerDay)")
                sql.append(" AND created_at < (day.\(day) + 1) * \(Timestamp.millisecondsPerDay))")
                sql.append(", (SELECT \(aggregate)(created_at) FROM share WHERE ")
                try PostgresFilter.append(window, owner: owner, to: &sql)
                sql.append(")) END AS \(aggregate)_created")
            }
        } else {
            sql.append(", NULL::bigint AS min_created, NULL::bigint AS max_created")
        }
        sql.append(" FROM (SELECT min(day) AS first, max(day) AS last FROM share_total")
        try appendTotalsConditions(to: &sql)
        if let first = plan.dayBounds.first {
            sql.append(" AND day >= ")
            sql.bind(first)
        }
        if let last = plan.dayBounds.last {
            sql.append(" AND day <= ")
            sql.bind(last)
        }
        // A month's first day is at most 30 days before any of its days.
        sql.append(") AS day) SELECT span.*, month.* FROM span CROSS JOIN LATERAL (SELECT \(Self.arrays) FROM ")
        sql.append("(SELECT month, type, count, div(bytes, 4294967296)::bigint, mod(bytes, 4294967296)::bigint FROM share_total_month")
        try appendTotalsConditions(to: &sql)
        sql.append(" AND month >= span.first - 30 AND month <= span.last) AS \(Self.arraysInput)) AS month")
        return sql
    }

    /// The row of `basisStatement` read: the months' totals (each `day` the month's first) and the first and last
    /// matching records' creation times (nil: the window holds none); nil when the totals hold no matching record.
    private func basis(
        reading rows: PostgresPreparedStatements.Rows
    ) async throws -> (months: [TotalsRow], matched: (first: Int64, last: Int64)?)? {
        for try await row in rows {
            let cells = row.makeRandomAccess()
            guard let firstDay = try cells.optionalInteger(0) else { return nil }
            var matched: (first: Int64, last: Int64)?
            if let first = try cells.optionalInteger(2), let last = try cells.optionalInteger(3) { matched = (first, last) }
            let months = try Self.totals(cells, from: 4).filter { $0.key >= StatisticsFromTotals.firstOfMonth(firstDay) }
            return (months.map { TotalsRow(day: $0.key, category: $0.category, sums: $0.sums) }, matched)
        }
        return nil
    }

    /// Totals' rows (a key, a type, a count and the bytes' two 32-bit halves, as `Sums` adds them up) gathered into
    /// one row of five arrays: PostgresNIO spends on each row several times what it spends on each element.
    private static let arrays = "array_agg(key), array_agg(type), array_agg(count), array_agg(high), array_agg(low)"
    /// How the rows `arrays` gathers name their columns.
    private static let arraysInput = "totals (key, type, count, high, low)"

    /// The totals' rows that `arrays` gathered into the columns from `column` on.
    private static func totals(_ cells: PostgresRandomAccessRow, from column: Int) throws -> [(key: Int64, category: Int, sums: Sums)] {
        let (keys, types) = (try cells.integers(column), try cells.strings(column + 1))
        let (counts, highs, lows) = (try cells.integers(column + 2), try cells.integers(column + 3), try cells.integers(column + 4))
        guard [types.count, counts.count, highs.count, lows.count].allSatisfy({ $0 == keys.count }) else {
            throw PostgresFailure.unexpectedTotals
        }
        return keys.indices.map { index in
            let sums = Sums(count: Int(counts[index]), high: highs[index], low: lows[index])
            return (keys[index], StatisticsFromTotals.category(named: types[index]), sums)
        }
    }

    /// The count and bytes per category of each of `reads`.
    private func sums(
        of reads: [TotalsRead], _ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, logger: Logger
    ) async throws -> [CategorySums] {
        var sums = [CategorySums](repeating: CategorySums(), count: reads.count)
        guard let statement = try sumsStatement(of: reads) else { return sums }
        for try await row in try await prepared.rows(statement, on: connection, logger: logger) {
            // One per read and type (grouped so).
            for total in try Self.totals(row.makeRandomAccess(), from: 0) {
                guard let read = Int(exactly: total.key), sums.indices.contains(read) else { throw PostgresFailure.unexpectedTotals }
                sums[read][total.category] = total.sums
            }
        }
        return sums
    }

    /// The statement reading `reads` (nil: none): each read on its own through its tables' keys or the creation-time
    /// index (a join of all of them with the rows would be planned as a read of the whole table), those of a grain
    /// together, numbered by their place in `reads`.
    func sumsStatement(of reads: [TotalsRead]) throws -> BoundSQL? {
        var sql = BoundSQL()
        for grain in [TotalsRead.Grain.days, .quarterHours, .records] {
            let indices = reads.indices.filter { reads[$0].grain == grain }
            guard !indices.isEmpty else { continue }
            sql.append(sql.text.isEmpty ? "SELECT \(Self.arrays) FROM (" : " UNION ALL ")
            sql.append("SELECT part.number, sums.* FROM unnest(")
            // Each kind of range's unit (named in the table it is read from) and each read's range of it.
            let ranges: [(unit: String, table: String, ofReads: [Range<Int64>])]
            switch grain {
            case .days: ranges = [("day", "share_total", indices.map { reads[$0].numbers })]
            case .quarterHours:
                let split = indices.map { Self.split(reads[$0].numbers) }
                ranges = Self.quarterHourGrains.enumerated().map { level, totals in (totals.unit, totals.table, split.map { $0[level] }) }
            case .records: ranges = [("instant", "share", indices.map { reads[$0].from..<reads[$0].before })]
            }
            for (_, _, ofReads) in ranges {
                try sql.bind(array: ofReads.map(\.lowerBound))
                sql.append("::bigint[], ")
                try sql.bind(array: ofReads.map(\.upperBound))
                sql.append("::bigint[], ")
            }
            try sql.bind(array: indices)
            let columns = ranges.map { "\($0.unit)_first, \($0.unit)_after" }.joined(separator: ", ")
            sql.append("::bigint[]) AS part (\(columns), number) CROSS JOIN LATERAL (")
            switch grain {
            case .days, .quarterHours:
                sql.append("SELECT type, sum(count)::bigint, div(sum(bytes), 4294967296)::bigint, mod(sum(bytes), 4294967296)::bigint FROM (")
                for (index, (unit, table, _)) in ranges.enumerated() {
                    sql.append(index == 0 ? "SELECT type, count, bytes FROM \(table)" : " UNION ALL SELECT type, count, bytes FROM \(table)")
                    try appendTotalsConditions(to: &sql)
                    // An empty range is not looked for.
                    sql.append(" AND part.\(unit)_first < part.\(unit)_after AND \(unit) >= part.\(unit)_first AND \(unit) < part.\(unit)_after")
                }
                sql.append(") AS totals GROUP BY type) AS sums")
            case .records:
                sql.append("SELECT type, count(*), sum(size >> 32)::bigint, sum(size & 4294967295)::bigint FROM share WHERE ")
                // Each read's instants bound it, whatever the window.
                var unbounded = query
                unbounded.createdFrom = nil
                unbounded.createdBefore = nil
                try PostgresFilter.append(unbounded, owner: owner, to: &sql)
                sql.append(" AND created_at >= part.instant_first AND created_at < part.instant_after GROUP BY type) AS sums")
            }
        }
        guard !sql.text.isEmpty else { return nil }
        sql.append(") AS \(Self.arraysInput)")
        return sql
    }

    /// The totals a range of quarter hours is read from, coarsest first: each one's unit (named as in its table) and
    /// how many quarter hours a unit holds.
    private static let quarterHourGrains: [(unit: String, table: String, quarters: Int64)] = [
        ("six_hours", "share_total_six_hours", 24), ("hour", "share_total_hour", 4), ("quarter", "share_total_quarter", 1),
    ]

    /// A range of quarter hours as one range of each of `quarterHourGrains` (in its unit): the coarsest units it
    /// covers whole, then the finer ones beside them, all in one read (each read costs the server more than its rows
    /// do). The plan's ranges start or end at midnight, so what lies beside a grain's units lies on one side; where
    /// it lies on both, that grain is not read and the finer ones cover the range.
    static func split(_ quarters: Range<Int64>) -> [Range<Int64>] {
        var rest = quarters
        return quarterHourGrains.map { grain in
            let size = grain.quarters
            let (first, after) = (Timestamp.floorDivide(rest.lowerBound + size - 1, size), Timestamp.floorDivide(rest.upperBound, size))
            guard first < after else { return first..<first }
            let (before, beyond) = (rest.lowerBound..<first * size, after * size..<rest.upperBound)
            guard before.isEmpty || beyond.isEmpty else { return first..<first }
            rest = before.isEmpty ? beyond : before
            return first..<after
        }
    }
}
