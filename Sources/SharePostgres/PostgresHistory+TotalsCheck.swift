import PostgresNIO
import ShareHistory
import ShareKit

/// What the conformance suite asks of the running totals: that they are the records' own.
extension PostgresHistory {
    /// The statistics of `query` in this history from the running totals, and counted from its records.
    package func statisticsBothWays(
        _ query: ShareQuery, by period: StatsPeriod?
    ) async throws -> (fromTotals: ShareStats, fromRecords: ShareStats) {
        try await store.lease(statementTimeout: 0) { [self] connection in
            let owner = try await ownerNumber(connection)
            let fromTotals = try await PostgresTotalsStatistics(query: query, owner: owner).fetch(
                by: period, connection, store.prepared, logger: store.logger)
            return (
                fromTotals, try await PostgresStatistics(query: query, owner: owner).fetchFromRecords(by: period, connection, logger: store.logger)
            )
        }
    }
}
