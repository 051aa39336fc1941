import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Statistics from PostgreSQL's running totals (`share_total_month` per UTC month, `share_total` per UTC day,
/// `share_total_quarter` per UTC quarter hour, kept by triggers with every change), added up as `TotalsPlan` says,
/// as SQLite's are: the plan's reads of each kind in one statement.
struct PostgresTotalsStatistics {
    let query: ShareQuery
    /// Whose history: the number its records carry (`PostgresOwnerNumbers`).
    let owner: Int64

    /// The statistics `by` a period (nil: the one that fits their span).
    func fetch(by period: StatsPeriod?, _ connection: PostgresConnection, logger: Logger) async throws -> ShareStats {
        let plan = StatisticsFromTotals(query)
        guard let (firstDay, lastDay) = try await dayRange(plan, connection, logger: logger) else { return ShareStats.empty(by: period) }
        var matched: (first: Int64, last: Int64)?
        if period == nil {
            guard let first = try await bound("min", plan.spanSearches(inDay: firstDay), connection, logger: logger),
                let last = try await bound("max", plan.spanSearches(inDay: lastDay), connection, logger: logger)
            else { return ShareStats.empty(by: nil) }
            matched = (first, last)
        }
        let months = try await months(from: firstDay, through: lastDay, connection, logger: logger)
        let answer = plan.plan(by: period, matched: matched, months: months)
        var sums = [[Int: Sums]](repeating: [:], count: answer.reads.count)
        for grain in [TotalsRead.Grain.days, .quarterHours, .records] {
            let reads = answer.reads.indices.filter { answer.reads[$0].grain == grain }
            guard !reads.isEmpty else { continue }
            let read = try await self.sums(of: reads.map { answer.reads[$0] }, connection, logger: logger)
            for (index, found) in zip(reads, read) { sums[index] = found }
        }
        return answer.stats(reading: sums)
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

    /// The first and the last UTC day the totals hold a matching record on, within the window's days.
    private func dayRange(_ plan: StatisticsFromTotals, _ connection: PostgresConnection, logger: Logger) async throws -> (Int64, Int64)? {
        var sql = BoundSQL("SELECT min(day), max(day) FROM share_total")
        try appendTotalsConditions(to: &sql)
        if let first = plan.dayBounds.first {
            sql.append(" AND day >= ")
            sql.bind(first)
        }
        if let last = plan.dayBounds.last {
            sql.append(" AND day <= ")
            sql.bind(last)
        }
        for try await (first, last) in try await connection.query(sql.query, logger: logger).decode((Int64?, Int64?).self) {
            if let first, let last { return (first, last) }
        }
        return nil
    }

    /// The rows of the monthly totals of the months from `firstDay`'s through `lastDay`'s (each `day` the month's
    /// first day).
    private func months(from firstDay: Int64, through lastDay: Int64, _ connection: PostgresConnection, logger: Logger) async throws -> [TotalsRow] {
        var sql = BoundSQL("SELECT month, type, count, \(Self.bytesHalves) FROM share_total_month")
        try appendTotalsConditions(to: &sql)
        sql.append(" AND month >= ")
        sql.bind(StatisticsFromTotals.firstOfMonth(firstDay))
        sql.append(" AND month <= ")
        sql.bind(lastDay)
        var rows: [TotalsRow] = []
        for try await (day, type, count, high, low) in try await connection.query(sql.query, logger: logger)
            .decode((Int64, String, Int, Int64, Int64).self)
        {
            rows.append(TotalsRow(day: day, category: StatisticsFromTotals.category(named: type), sums: Sums(count: count, high: high, low: low)))
        }
        return rows
    }

    /// A total's bytes as the two 32-bit halves `Sums` adds up.
    private static let bytesHalves = "div(bytes, 4294967296)::bigint, mod(bytes, 4294967296)::bigint"

    /// The `aggregate` (min or max) of the creation times of the records of the first of `searches` that holds any.
    private func bound(_ aggregate: String, _ searches: [ShareQuery], _ connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        for search in searches {
            var sql = BoundSQL("SELECT \(aggregate)(created_at) FROM share WHERE ")
            try PostgresFilter.append(search, owner: owner, to: &sql)
            for try await found in try await connection.query(sql.query, logger: logger).decode(Int64?.self) {
                if let found { return found }
            }
        }
        return nil
    }

    /// The count and bytes per category of each of `reads` (all of one grain), in one statement: each read on its
    /// own through its table's key or the creation-time index (a join of all of them with the rows would be planned
    /// as a read of the whole table).
    private func sums(of reads: [TotalsRead], _ connection: PostgresConnection, logger: Logger) async throws -> [[Int: Sums]] {
        var sums = [[Int: Sums]](repeating: [:], count: reads.count)
        let grain = reads[0].grain
        var sql = BoundSQL("SELECT part.number, sums.* FROM unnest(")
        try sql.bind(array: reads.map { grain == .records ? $0.from : $0.numbers.lowerBound })
        sql.append("::bigint[], ")
        try sql.bind(array: reads.map { grain == .records ? $0.before : $0.numbers.upperBound })
        sql.append("::bigint[]) WITH ORDINALITY AS part (first, after, number) CROSS JOIN LATERAL (")
        switch grain {
        case .days, .quarterHours:
            let (table, unit) = grain == .days ? ("share_total", "day") : ("share_total_quarter", "quarter")
            sql.append("SELECT type, sum(count)::bigint, div(sum(bytes), 4294967296)::bigint, mod(sum(bytes), 4294967296)::bigint FROM \(table)")
            try appendTotalsConditions(to: &sql)
            sql.append(" AND \(unit) >= part.first AND \(unit) < part.after GROUP BY type) AS sums")
        case .records:
            sql.append("SELECT type, count(*), sum(size >> 32)::bigint, sum(size & 4294967295)::bigint FROM share WHERE ")
            // Each read's instants bound it, whatever the window.
            var unbounded = query
            unbounded.createdFrom = nil
            unbounded.createdBefore = nil
            try PostgresFilter.append(unbounded, owner: owner, to: &sql)
            sql.append(" AND created_at >= part.first AND created_at < part.after GROUP BY type) AS sums")
        }
        for try await (number, type, count, high, low) in try await connection.query(sql.query, logger: logger)
            .decode((Int, String, Int, Int64, Int64).self)
        {
            // One row per read and type (grouped so).
            sums[number - 1][StatisticsFromTotals.category(named: type)] = Sums(count: count, high: high, low: low)
        }
        return sums
    }
}
