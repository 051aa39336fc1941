import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareSQLite

/// What an import acknowledges on PostgreSQL is in the history: its staging survives the database's crash recovery,
/// and an import whose staged records are gone all the same keeps none and says so, rather than reporting them.
@Suite struct PostgresImportTests {
    @Test func theStagingTableIsWrittenToTheLogSoRecoveryKeepsIt() async throws {
        try await TestPostgres.withStore { store in
            let persistence = try await store.values("SELECT relpersistence::text FROM pg_class WHERE relname = 'share_import'", as: String.self)
            #expect(persistence == ["p"], "p: permanent, written to the log; u would be unlogged")
        }
    }

    @Test func anImportWhoseStagedRecordsWereLostKeepsNoneAndSaysSo() async throws {
        try await TestPostgres.withStore { store in
            let session = try await store.sharedHistory.beginImport(by: "local")
            let batch = try (1...5).map { line in
                (line: line, share: try NewShare(id: nil, name: "part \(line).pdf", folder: nil, createdAt: nil, size: 1))
            }
            #expect(try await session.stage(batch).isEmpty)
            // What a crash recovery does to an unlogged table, or a failover to a standby that never had it.
            try await store.execute("DELETE FROM share_import WHERE line > 2")
            await #expect(throws: FinishedImport.stagingLost(staged: 5, stored: 2)) { _ = try await session.finish() }
            #expect(try await store.recordCounts().live == 0)
        }
    }

    /// An import that failed while the database restarted could not take its staged rows out then: they go once it
    /// answers, and whatever no node could take out goes with the hourly sweep a day after the import began (no node
    /// need start for it).
    @Test func anAbandonedImportsStagedRowsAreTakenOut() async throws {
        try await TestPostgres.withStore { store in
            let batch = try (1...3).map { line in
                (line: line, share: try NewShare(id: nil, name: "part \(line).pdf", folder: nil, createdAt: nil, size: 1))
            }
            let failed = try await store.sharedHistory.beginImport(by: "local")
            #expect(try await failed.stage(batch).isEmpty)
            await failed.discard()
            try await waitUntil("the failed import's staged rows taken out") {
                try await store.values("SELECT count(*) FROM share_import", as: Int64.self) == [0]
            }
            let forgotten = try await store.sharedHistory.beginImport(by: "local")
            #expect(try await forgotten.stage(batch).isEmpty)
            try await store.execute("UPDATE share_import SET started_at = started_at - \(2 * Timestamp.millisecondsPerDay)")
            _ = try await store.dropStaleUploads(now: .now())
            #expect(try await store.values("SELECT count(*) FROM share_import", as: Int64.self) == [0])
        }
    }

    /// After a million records arrived, statistics read the totals at half speed until autovacuum analysed them, a
    /// minute or more later. An import that autovacuum would analyse after refreshes the statistics itself; a small one
    /// into a larger history does not pay for it.
    @Test func anImportRefreshesThePlannersStatisticsWhenAutovacuumWould() async throws {
        try await TestPostgres.withStore { store in
            try await store.importNames(200)
            #expect(try await Self.analyses(store) == [1, 1], "share and share_total_quarter, analysed by the import")
            try await store.importNames(20)
            #expect(try await Self.analyses(store) == [1, 1], "20 records are fewer than 50 plus a tenth of 200")
            try await store.importNames(100)
            #expect(try await Self.analyses(store) == [2, 2])
        }
    }

    /// `ANALYZE`s run by hand (not by autovacuum) of `share` and `share_total_quarter`.
    private static func analyses(_ store: PostgresStore) async throws -> [Int64] {
        try await store.values(
            "SELECT analyze_count FROM pg_stat_user_tables WHERE relname IN ('share', 'share_total_quarter') ORDER BY relname",
            as: Int64.self)
    }

    /// A 200,000-record import took over a quarter of an hour to finish, holding its transaction, while the
    /// check for ids taken meanwhile compared each staged row with every stored one. Its plan must match them by hash.
    @Test func aLargeImportsFinishMatchesTakenIdsByHashNotRowByRow() async throws {
        try await TestPostgres.withStore { store in
            let session = try #require(try await store.sharedHistory.beginImport(by: "local") as? PostgresImport)
            #expect(try await session.stage([(line: 1, share: try NewShare(id: nil, name: "a.pdf", folder: nil, createdAt: nil, size: 1))]).isEmpty)
            try await store.execute(
                """
                INSERT INTO share_import SELECT (jsonb_populate_record(staged, jsonb_build_object(
                    'id_key', staged.id_key || n, 'id', staged.id || n, 'line', n + 1, 'position', n))).*
                FROM share_import AS staged, generate_series(1, 100000) AS n
                """)
            try await store.execute("ANALYZE share_import")
            let storing = PostgresHistory.storingImport(key: session.key, owner: 1)
            let plan = try await store.values(PostgresQuery(unsafeSQL: "EXPLAIN " + storing.sql, binds: storing.binds), as: String.self)
                .joined(separator: "\n")
            #expect(plan.contains("Anti Join") && !plan.contains("SubPlan"), "\(plan)")
        }
    }
}
