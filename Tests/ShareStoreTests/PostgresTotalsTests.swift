import Foundation
import PostgresNIO
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareStore

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
                        var query = query
                        query.owner = try await history.ownerNumber(connection)
                        let fromTotals = try await PostgresTotalsStatistics(query: query)
                            .fetch(by: period, evenIfRecordsCostLess: true, connection, logger: history.logger)
                        let fromRecords = try await PostgresStatistics(query: query).fetchFromRecords(by: period, connection, logger: history.logger)
                        return (try #require(fromTotals), fromRecords)
                    }
                }
            }
        }
    }

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
