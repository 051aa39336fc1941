import PostgresNIO
import ShareHistory
import ShareKit

/// What the conformance suite asks of the running totals: that they are the records' own.
extension PostgresStore {
    /// The statistics of `query` in this history from the running totals, and counted from its records.
    package func statisticsBothWays(
        _ query: ShareQuery, by period: StatsPeriod?
    ) async throws -> (fromTotals: ShareStats?, fromRecords: ShareStats) {
        try await lease(statementTimeout: 0) { [self] connection in
            let owner = try await ownerNumber(connection)
            let fromTotals = try await PostgresTotalsStatistics(query: query, owner: owner)
                .fetch(by: period, evenIfRecordsCostLess: true, connection, logger: logger)
            return (fromTotals, try await PostgresStatistics(query: query, owner: owner).fetchFromRecords(by: period, connection, logger: logger))
        }
    }

    /// The rows of the daily and monthly totals, in every history, that are not what the records add up to.
    package func totalsThatDiffer() async throws -> Int {
        let rows = try await client.query(
            """
            WITH day AS (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type,
                                count(*) AS count, sum(size) AS bytes FROM share GROUP BY 1, 2, 3, 4),
                 month AS (SELECT owner, trashed, share_utc_month(day) AS month, type, sum(count) AS count, sum(bytes) AS bytes
                           FROM day GROUP BY 1, 2, 3, 4)
            SELECT (SELECT count(*) FROM day FULL JOIN share_total AS total USING (owner, trashed, day, type)
                    WHERE day.count IS DISTINCT FROM total.count OR day.bytes IS DISTINCT FROM total.bytes)
                 + (SELECT count(*) FROM month FULL JOIN share_total_month AS total USING (owner, trashed, month, type)
                    WHERE month.count IS DISTINCT FROM total.count OR month.bytes IS DISTINCT FROM total.bytes)
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }
}
