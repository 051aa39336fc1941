import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Statistics from PostgreSQL's running totals (`share_total` per UTC day, `share_total_month` per UTC month, kept
/// by triggers with every change), added up as `StatisticsFromTotals` says, as SQLite's are.
struct PostgresTotalsStatistics {
    let query: ShareQuery
    /// Whose history: the number its records carry (`PostgresOwnerNumbers`).
    let owner: Int64

    /// The statistics `by` a period (nil: the one that fits their span); nil when reading the matching records
    /// costs less than the records of the cut days would, unless `evenIfRecordsCostLess`.
    func fetch(
        by period: StatsPeriod?, evenIfRecordsCostLess: Bool = false, _ connection: PostgresConnection, logger: Logger
    ) async throws
        -> ShareStats?
    {
        let plan = StatisticsFromTotals(query)
        guard let (firstDay, lastDay) = try await dayRange(plan, connection, logger: logger) else { return ShareStats.empty(by: period) }
        var matched: (first: Int64, last: Int64)?
        if period == nil {
            guard let first = try await bound("min", plan.spanSearches(inDay: firstDay), connection, logger: logger),
                let last = try await bound("max", plan.spanSearches(inDay: lastDay), connection, logger: logger)
            else { return ShareStats.empty(by: nil) }
            matched = (first, last)
        }
        let answer = plan.answer(by: period, from: firstDay, through: lastDay, matched: matched)
        if answer.readsMonths {
            return answer.stats(fromMonths: try await totals(perMonth: true, from: firstDay, through: lastDay, connection, logger: logger))
        }
        let days = try await totals(perMonth: false, from: firstDay, through: lastDay, connection, logger: logger)
        guard let split = answer.split(days: days, evenIfRecordsCostLess: evenIfRecordsCostLess) else { return nil }
        return split.stats(reading: try await sums(of: split, connection, logger: logger))
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

    /// The rows of the totals from `firstDay` through `lastDay`: per day, or per month (`day` then being the
    /// month's first day).
    private func totals(
        perMonth: Bool, from firstDay: Int64, through lastDay: Int64, _ connection: PostgresConnection, logger: Logger
    )
        async throws -> [TotalsRow]
    {
        let (table, unit) = perMonth ? ("share_total_month", "month") : ("share_total", "day")
        var sql = BoundSQL("SELECT \(unit), type, count, \(Self.bytesHalves) FROM \(table)")
        try appendTotalsConditions(to: &sql)
        sql.append(" AND \(unit) >= ")
        sql.bind(perMonth ? StatisticsFromTotals.firstOfMonth(firstDay) : firstDay)
        sql.append(" AND \(unit) <= ")
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

    /// The count and bytes per category of the records of each of the split's reads, in one statement: each part
    /// read through the creation-time index on its own (a join of all the parts with the records would be planned
    /// as a read of the whole table).
    private func sums(of split: StatisticsFromTotals.DaySplit, _ connection: PostgresConnection, logger: Logger) async throws -> [[Int: Sums]] {
        var sums = [[Int: Sums]](repeating: [:], count: split.reads.count)
        guard !split.reads.isEmpty else { return sums }
        var sql = BoundSQL("SELECT part.number, records.* FROM unnest(")
        try sql.bind(array: split.reads.map(\.from))
        sql.append("::bigint[], ")
        try sql.bind(array: split.reads.map(\.before))
        sql.append("::bigint[]) WITH ORDINALITY AS part (from_at, before_at, number) CROSS JOIN LATERAL (")
        sql.append("SELECT type, count(*), sum(size >> 32)::bigint, sum(size & 4294967295)::bigint FROM share WHERE ")
        // Each part's instants bound its read; the window's ends only cut the day into parts.
        var unbounded = query
        unbounded.createdFrom = nil
        unbounded.createdBefore = nil
        try PostgresFilter.append(unbounded, owner: owner, to: &sql)
        sql.append(" AND created_at >= part.from_at AND created_at < part.before_at GROUP BY type) AS records")
        for try await (number, type, count, high, low) in try await connection.query(sql.query, logger: logger)
            .decode((Int, String, Int, Int64, Int64).self)
        {
            // One row per part and type (grouped so).
            sums[number - 1][StatisticsFromTotals.category(named: type)] = Sums(count: count, high: high, low: low)
        }
        return sums
    }
}
