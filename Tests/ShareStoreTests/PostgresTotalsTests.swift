import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareSQLite

/// PostgreSQL's running totals answer statistics exactly as its records do, after every kind of change, as
/// SQLite's do (`RunningTotalsTests`). Were they to drift, `share stats` on a team's PostgreSQL would show numbers
/// no listing adds up to.
@Suite struct PostgresTotalsTests {
    @Test func statisticsFromTheTotalsAreTheRecordsOwnAfterEveryKindOfChange() async throws {
        try await TestPostgres.withStore { store in
            var alice = RandomChanges(database: store.history(of: "alice", quota: nil))
            var bob = RandomChanges(database: store.history(of: "bob", quota: nil), seed: 23)
            for _ in 0..<3 {
                try await alice.apply(40)
                try await bob.apply(20)
            }
            #expect(alice.kindsMade == RandomChanges.Kind.allCases.count, "every kind of change was tried")
            #expect(try await Self.totalsThatDiffer(store.client) == 0)
            for owner in ["alice", "bob"] {
                let history = store.history(of: owner, quota: nil)
                try await RunningTotalsTests.compareEveryQuery(owner) { query, period in
                    try await history.read { connection in
                        let owner = try await history.ownerNumber(connection)
                        let fromTotals = try await PostgresTotalsStatistics(query: query, owner: owner)
                            .fetch(by: period, evenIfRecordsCostLess: true, connection, logger: history.logger)
                        let fromRecords = try await PostgresStatistics(query: query, owner: owner).fetchFromRecords(
                            by: period, connection, logger: history.logger)
                        return (try #require(fromTotals), fromRecords)
                    }
                }
            }
        }
    }

    /// Statistics over a window whose ends fall inside UTC days (New York's midnights) read the records of those
    /// days' cut parts only, through the creation-time index, never the whole table: rows counted by the server, not
    /// time. (At this size the planner reads the parts through the index even when they are joined with the records
    /// in one statement; at a million it read the whole table, which the benchmark found.)
    @Test func aWindowCutInsideDaysReadsOnlyTheRecordsOfItsCutParts() async throws {
        try await TestPostgres.withStore { store in
            try await GridHistory.fill(store, records: 20_000)
            let parameters = [("from", "2023-02-01"), ("to", "2023-11-30"), ("tz", "America/New_York")]
            let window = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
            // The two UTC days the window's ends cut: what the read may touch at most.
            let cutDays = ["2023-02-01", "2023-12-01"].map { Timestamp(rfc3339: "\($0)T00:00:00Z")!.millisecondsSinceEpoch }
            // On a session without the quick lane's limit, whatever this machine's load.
            let (read, bound) = try await store.lease(statementTimeout: 0) { connection in
                // The planner's statistics, as autovacuum keeps them.
                _ = try await connection.query("ANALYZE share", logger: Self.logger)
                let owner = try await store.ownerNumber(connection)
                var bound = 0
                for day in cutDays {
                    bound += try await Self.single(
                        "SELECT count(*)::bigint FROM share WHERE created_at >= \(day) AND created_at < \(day + Timestamp.millisecondsPerDay)",
                        connection)
                }
                return (try await Self.rowsRead(connection, by: window, owner: owner, logger: store.logger), bound)
            }
            #expect(read <= bound, "\(read) rows of share read; the two cut days hold \(bound)")
        }
    }

    /// The rows of `share` the statistics of `query` read (whole or through indexes), as the server counts them in
    /// the transaction they run in: this connection's own, whatever other sessions do. The counts it kept of its
    /// earlier statements are sent first, so that the transaction's start from none.
    private static func rowsRead(_ connection: PostgresConnection, by query: ShareQuery, owner: Int64, logger: Logger) async throws -> Int {
        _ = try await connection.query("SELECT pg_stat_force_next_flush()", logger: logger)
        return try await connection.withTransaction(logger: logger) { connection in
            let stats = try await PostgresTotalsStatistics(query: query, owner: owner).fetch(by: StatsPeriod.none, connection, logger: logger)
            #expect(try #require(stats).count > 1000)
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

    /// The rows of the daily and monthly totals that are not what the records add up to.
    private static func totalsThatDiffer(_ client: PostgresClient) async throws -> Int {
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
            """)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }
}
