import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Statistics from PostgreSQL's running totals (`share_total_month` per UTC month, `share_total` per UTC day,
/// `share_total_hour` and `share_total_quarter` per UTC hour and quarter hour, kept by triggers with every change),
/// added up as `TotalsPlan` says, as SQLite's are: the plan's reads of each kind in one statement.
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
            // One per range and type (grouped so); a read of quarter hours may be three ranges.
            for total in try Self.totals(row.makeRandomAccess(), from: 0) {
                guard let read = Int(exactly: total.key), sums.indices.contains(read) else { throw PostgresFailure.unexpectedTotals }
                sums[read][total.category].add(total.sums)
            }
        }
        return sums
    }

    /// The statement reading `reads` (nil: none): each range on its own through its table's key or the creation-time
    /// index (a join of all of them with the rows would be planned as a read of the whole table), those of a source
    /// together, numbered by their read's place in `reads`. Reads of quarter hours always send both of theirs, so that
    /// the statement's text (prepared) is the same whichever ranges they hold.
    func sumsStatement(of reads: [TotalsRead]) throws -> BoundSQL? {
        let parts = Self.parts(of: reads)
        let quarterHours = reads.contains { $0.grain == .quarterHours }
        var sql = BoundSQL()
        for source in Source.allCases {
            let ranges = parts[source] ?? []
            guard !ranges.isEmpty || (quarterHours && [.hours, .quarterHours].contains(source)) else { continue }
            sql.append(sql.text.isEmpty ? "SELECT \(Self.arrays) FROM (" : " UNION ALL ")
            sql.append("SELECT part.number, sums.* FROM unnest(")
            try sql.bind(array: ranges.map(\.first))
            sql.append("::bigint[], ")
            try sql.bind(array: ranges.map(\.after))
            sql.append("::bigint[], ")
            try sql.bind(array: ranges.map(\.number))
            sql.append("::bigint[]) AS part (first, after, number) CROSS JOIN LATERAL (")
            if let (table, unit) = source.totals {
                sql.append("SELECT type, sum(count)::bigint, div(sum(bytes), 4294967296)::bigint, mod(sum(bytes), 4294967296)::bigint FROM \(table)")
                try appendTotalsConditions(to: &sql)
                sql.append(" AND \(unit) >= part.first AND \(unit) < part.after GROUP BY type) AS sums")
            } else {
                sql.append("SELECT type, count(*), sum(size >> 32)::bigint, sum(size & 4294967295)::bigint FROM share WHERE ")
                // Each read's instants bound it, whatever the window.
                var unbounded = query
                unbounded.createdFrom = nil
                unbounded.createdBefore = nil
                try PostgresFilter.append(unbounded, owner: owner, to: &sql)
                sql.append(" AND created_at >= part.first AND created_at < part.after GROUP BY type) AS sums")
            }
        }
        guard !sql.text.isEmpty else { return nil }
        sql.append(") AS \(Self.arraysInput)")
        return sql
    }

    /// Where a range's sums come from: a table of totals, or the records.
    private enum Source: CaseIterable {
        case days, hours, quarterHours, records

        /// The table of totals and the unit its rows are numbered in; nil for the records.
        var totals: (table: String, unit: String)? {
            switch self {
            case .days: ("share_total", "day")
            case .hours: ("share_total_hour", "hour")
            case .quarterHours: ("share_total_quarter", "quarter")
            case .records: nil
            }
        }
    }

    /// The ranges each source is read over (in its table's numbers, or instants for the records), each with the
    /// number of the read it adds to: a read of quarter hours takes the hours it covers whole from the hours' totals
    /// and only the quarter hours before the first and after the last of them from theirs.
    private static func parts(of reads: [TotalsRead]) -> [Source: [(first: Int64, after: Int64, number: Int)]] {
        var parts: [Source: [(first: Int64, after: Int64, number: Int)]] = [:]
        for (number, read) in reads.enumerated() {
            let numbers = read.numbers
            switch read.grain {
            case .days: parts[.days, default: []].append((numbers.lowerBound, numbers.upperBound, number))
            case .records: parts[.records, default: []].append((read.from, read.before, number))
            case .quarterHours:
                // Hours are four quarter hours; `>>` rounds down before 1970 too.
                let (firstHour, afterHour) = ((numbers.lowerBound + 3) >> 2, numbers.upperBound >> 2)
                guard firstHour < afterHour else {
                    parts[.quarterHours, default: []].append((numbers.lowerBound, numbers.upperBound, number))
                    continue
                }
                parts[.hours, default: []].append((firstHour, afterHour, number))
                for (first, after) in [(numbers.lowerBound, firstHour << 2), (afterHour << 2, numbers.upperBound)] where first < after {
                    parts[.quarterHours, default: []].append((first, after, number))
                }
            }
        }
        return parts
    }
}
