import ShareHistory
import ShareKit

/// What the conformance suite asks of the running totals: that they are the records' own.
extension SQLiteHistory {
    /// The statistics of `query` in this history from the running totals, and counted from its records.
    package func statisticsBothWays(
        _ query: ShareQuery, by period: StatsPeriod?
    ) async throws -> (fromTotals: ShareStats, fromRecords: ShareStats) {
        try await store.writer.read { [self] db in
            let owner = try ownerNumber(db)
            let fromTotals = try SQLiteTotalsStatistics(query: query, owner: owner).fetch(by: period, db)
            return (fromTotals, try SQLiteStatistics(query: query, owner: owner, trigramCounts: store.trigramCounts).fetchFromRecords(by: period, db))
        }
    }
}

extension SQLiteStore {
    /// The rows of the running totals, in every history, that are not what the records add up to.
    package func totalsThatDiffer() async throws -> Int {
        try await writer.read(SQLiteRunningTotals.differences)
    }
}
