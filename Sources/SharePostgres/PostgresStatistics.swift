import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Counts and bytes of the records a query matches: in total, per icon category, per local day, month or year;
/// from the running totals where they can answer, else added up by the database per category and local day and
/// then by period as in SQLite (`StatisticsTally`).
struct PostgresStatistics {
    let query: ShareQuery
    /// Whose history: the number its records carry (`PostgresOwnerNumbers`).
    let owner: Int64

    /// Far enough back that every instant since the year 0000, moved to local time, is positive.
    private static let dayBias: Int64 = 1_000_000

    /// The statistics `by` a period (nil: the one that fits their span): from the running totals when they hold
    /// every filter of the query, else from the records.
    func fetch(
        by period: StatsPeriod?, _ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, logger: Logger
    ) async throws -> ShareStats {
        if StatisticsFromTotals.canAnswer(query) {
            return try await PostgresTotalsStatistics(query: query, owner: owner).fetch(by: period, connection, prepared, logger: logger)
        }
        return try await fetchFromRecords(by: period, connection, logger: logger)
    }

    /// The statistics `by` a period, from the records the query matches.
    func fetchFromRecords(by period: StatsPeriod?, _ connection: PostgresConnection, logger: Logger) async throws -> ShareStats {
        let empty = ShareStats.empty(by: period)
        var bounds = BoundSQL("SELECT min(created_at), max(created_at) FROM share WHERE ")
        try PostgresFilter.append(query, owner: owner, to: &bounds)
        var span: (first: Int64, last: Int64)?
        for try await (first, last) in try await connection.query(bounds.query, logger: logger).decode((Int64?, Int64?).self) {
            if let first, let last { span = (first, last) }
        }
        guard let span else { return empty }
        let day = query.zone.localDayExpression(of: "created_at", from: span.first, through: span.last, bias: Self.dayBias)
        var sql = BoundSQL("SELECT type, \(day) AS day, count(*), sum(size >> 32)::bigint, sum(size & 4294967295)::bigint FROM share WHERE ")
        try PostgresFilter.append(query, owner: owner, to: &sql)
        sql.append(" GROUP BY 1, 2")
        var groups: [(type: String, day: CalendarDay, sums: Sums)] = []
        for try await (type, number, count, high, low) in try await connection.query(sql.query, logger: logger)
            .decode((String, Int64, Int, Int64, Int64).self)
        {
            groups.append((type, CalendarDay(daysSinceEpoch: number - Self.dayBias), Sums(count: count, high: high, low: low)))
        }
        guard let firstDay = groups.map(\.day).min(), let lastDay = groups.map(\.day).max() else { return empty }
        let chosen = period ?? StatsPeriod.fitting(from: firstDay, through: lastDay)
        var tally = StatisticsTally()
        for group in groups {
            tally.add(group.sums, type: group.type, period: chosen == .none ? 0 : chosen.firstDay(of: group.day).daysSinceEpoch)
        }
        return tally.stats(by: chosen) { chosen.name(of: CalendarDay(daysSinceEpoch: $0)) }
    }
}
