import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// SQLite's running totals through what only SQLite does to them: `shared assign`, an import failing inside the
/// database, days at the edges of time, and `shared check --repair-totals`. (That every kind of change keeps them the
/// records' own is the conformance suite's `StatisticsTests`.)
@Suite struct RunningTotalsTests {
    /// `shared assign` gives the records of nobody to a user: their totals go with them.
    @Test func assignedRecordsTakeTheirTotalsToTheirNewOwner() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        var changes = RandomChanges(database)
        try await changes.apply(80)
        let before = try await database.usage()
        let assigned = try await database.assignUnowned(to: "carol")
        #expect(assigned == before.count + (try await database.recordCounts().trashed))
        #expect(try await database.history(of: "carol", quota: nil).usage() == before)
        #expect(try await database.usage() == ShareStats.Total(count: 0, bytes: 0))
        #expect(try await queue.read(SQLiteRunningTotals.differences) == 0)
        try await RunningTotalsCheck.compareEveryQuery(database.history(of: "carol", quota: nil), "carol", zones: ["UTC", "Asia/Kathmandu"])
    }

    /// Periods are worked out for the days that hold records only: days over nine millennia cost four rows.
    @Test func aHistoryOverMillenniaIsAnsweredFromItsFewDaysAtTheEdgesOfTime() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        for time in ["0000-01-01T00:00:00Z", "0001-06-01T12:00:00Z", "2021-03-14T05:30:00Z", "9999-12-31T23:59:59.999Z"] {
            try await database.add("at-\(time.prefix(4)).pdf", size: 3, at: time)
        }
        try await RunningTotalsCheck.compareEveryQuery(
            database, "millennia", zones: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"], filters: [[], [("type", "pdf")]])
    }

    @Test func anImportThatFailsHalfWayLeavesTheTotalsAsTheyWere() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        try await database.add("kept.pdf", size: 10, at: "2021-01-17T10:00:00Z")
        // The writer's own connection fails the merge on the third record, after two have joined the history.
        try await queue.write { db in
            try db.execute(
                sql:
                    "CREATE TEMP TRIGGER fail_on_crash BEFORE INSERT ON main.share WHEN new.name = 'crash.txt' BEGIN SELECT RAISE(ABORT, 'crash'); END"
            )
        }
        let session = try await database.beginImport()
        let names = ["a.pdf", "b.jpg", "crash.txt", "d.zip"]
        _ = try await session.stage(
            try names.enumerated().map { line, name in (line + 1, try NewShare(id: nil, name: name, folder: nil, createdAt: nil, size: 5)) })
        await #expect(throws: DatabaseError.self) { _ = try await session.finish() }
        let stats = try await database.stats(ShareQuery(), by: StatsPeriod.none)
        #expect(stats.count == 1 && stats.bytes == 10 && stats.types == ["pdf": .init(count: 1, bytes: 10)])
        #expect(try await queue.read(SQLiteRunningTotals.differences) == 0)
    }

    @Test func aRepairRebuildsTotalsThatDriftedAndTheChecksNameThem() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        try await database.add("a.pdf", size: 10, at: "2021-01-17T10:00:00Z")
        try await database.add("b.pdf", size: 20, at: "2021-01-18T10:00:00Z")
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE share_total SET count = 7 WHERE day = (SELECT min(day) FROM share_total)")
        }
        #expect(throws: StoreError.totalsDiffer(path: path, rows: 1)) { try SQLiteBackups.check(path) }
        #expect(try SQLiteRunningTotals.repair(databaseAt: path) == 1)
        #expect(try SQLiteBackups.check(path).live == 2)
        #expect(try await database.stats(ShareQuery(), by: StatsPeriod.none).count == 2)
    }
}
