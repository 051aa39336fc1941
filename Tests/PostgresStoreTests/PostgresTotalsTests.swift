import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareSQLite

/// PostgreSQL's statistics from its running totals read only what they must. (That the totals stay the records' own
/// is the conformance suite's `StatisticsTests`.)
@Suite struct PostgresTotalsTests {
    /// Statistics over a window whose ends fall inside UTC days (New York's midnights) read no record: the
    /// quarter hours' totals hold the cut parts of those days. Rows counted by the server, not time.
    @Test func aWindowCutInsideDaysReadsNoRecord() async throws {
        try await TestPostgres.withStore { store in
            try await GridHistory.fill(store, records: 20_000)
            let parameters = [("from", "2023-02-01"), ("to", "2023-11-30"), ("tz", "America/New_York")]
            let window = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
            // On a session without the quick lane's limit, whatever this machine's load.
            let read = try await store.lease(statementTimeout: 0) { connection in
                // The planner's statistics, as autovacuum keeps them.
                _ = try await connection.query("ANALYZE share", logger: Self.logger)
                return try await Self.rowsRead(
                    connection, store.prepared, by: window, owner: try await store.ownerNumber(connection), logger: store.logger)
            }
            #expect(read == 0, "\(read) rows of share read")
        }
    }

    /// The rows of `share` the statistics of `query` read (whole or through indexes), as the server counts them in
    /// the transaction they run in: this connection's own, whatever other sessions do. The counts it kept of its
    /// earlier statements are sent first, so that the transaction's start from none.
    private static func rowsRead(
        _ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, by query: ShareQuery, owner: Int64, logger: Logger
    ) async throws -> Int {
        _ = try await connection.query("SELECT pg_stat_force_next_flush()", logger: logger)
        return try await connection.withTransaction(logger: logger) { connection in
            let stats = try await PostgresTotalsStatistics(query: query, owner: owner).fetch(
                by: StatsPeriod.none, connection, prepared, logger: logger)
            #expect(stats.count > 1000)
            // Read whole or through a bitmap, counted on the table; through an index, counted on that index.
            return try await single(
                """
                SELECT (pg_stat_get_xact_tuples_returned('share'::regclass) + pg_stat_get_xact_tuples_fetched('share'::regclass)
                    + (SELECT sum(pg_stat_get_xact_tuples_fetched(indexrelid)) FROM pg_index WHERE indrelid = 'share'::regclass))::bigint
                """,
                connection)
        }
    }

    private static func single(_ sql: String, _ connection: PostgresConnection) async throws -> Int {
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { return value }
        return -1
    }

    private static let logger = Logger(label: "postgres-totals-tests")
}
