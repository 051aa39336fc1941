import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Synchronization
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
        let before = try await database.sharedHistory.usage()
        let assigned = try await database.assignUnowned(to: "carol")
        #expect(assigned == before.count + (try await database.recordCounts().trashed))
        #expect(try await database.history(of: "carol", quota: nil).usage() == before)
        #expect(try await database.sharedHistory.usage() == ShareStats.Total(count: 0, bytes: 0))
        #expect(try await queue.read(SQLiteRunningTotals.differences) == 0)
        try await RunningTotalsCheck.compareEveryQuery(database.history(of: "carol", quota: nil), "carol", zones: ["UTC", "Asia/Kathmandu"])
    }

    /// Periods are worked out for the months that hold records only: nine millennia cost four months.
    @Test func aHistoryOverMillenniaIsAnsweredFromItsFewDaysAtTheEdgesOfTime() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        for time in ["0000-01-01T00:00:00Z", "0001-06-01T12:00:00Z", "2021-03-14T05:30:00Z", "9999-12-31T23:59:59.999Z"] {
            try await database.sharedHistory.add("at-\(time.prefix(4)).pdf", size: 3, at: time)
        }
        try await RunningTotalsCheck.compareEveryQuery(
            database.sharedHistory, "millennia", zones: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"], filters: [[], [("type", "pdf")]])
    }

    /// In a zone whose midnights are not UTC's (New York, Kolkata, Kathmandu, Chatham), statistics by day, month
    /// and year over local dates read the totals only, never a record: every local midnight falls on a quarter hour.
    @Test func statisticsInAnyZoneReadNoRecord() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        for day in 0..<90 {
            let time = Timestamp(millisecondsSinceEpoch: 1_609_459_200_000 + Int64(day) * 86_400_000 + Int64(day % 24) * 3_600_000)
            try await database.sharedHistory.add("day-\(day).\(day % 2 == 0 ? "pdf" : "jpg")", size: Int64(day), at: time.description)
        }
        let statements = Mutex<[String]>([])
        try await queue.write { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
        for zone in ["America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham"] {
            let query = try ShareQuery(
                parameters: [("from", "2021-01-10"), ("to", "2021-03-20"), ("tz", zone)].map { (name: $0.0, value: $0.1) },
                defaultZone: ZonedCalendar(identifier: "UTC")!)
            for period in StatsPeriod.allCases {
                let stats = try await database.sharedHistory.stats(query, by: period)
                #expect(stats.count > 60, "\(zone) by \(period)")
            }
        }
        let seen = statements.withLock { $0 }
        #expect(seen.contains { $0.contains("FROM share_total_quarter") }, "the quarter hours' totals were read")
        let records = seen.filter { $0.contains("FROM share ") || $0.hasSuffix("FROM share") }
        #expect(records.isEmpty, "\(records)")
    }

    @Test func anImportThatFailsHalfWayLeavesTheTotalsAsTheyWere() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        try await database.sharedHistory.add("kept.pdf", size: 10, at: "2021-01-17T10:00:00Z")
        // The writer's own connection fails the merge on the third record, after two have joined the history.
        try await queue.write { db in
            try db.execute(
                sql:
                    "CREATE TEMP TRIGGER fail_on_crash BEFORE INSERT ON main.share WHEN new.name = 'crash.txt' BEGIN SELECT RAISE(ABORT, 'crash'); END"
            )
        }
        let session = try await database.sharedHistory.beginImport()
        let names = ["a.pdf", "b.jpg", "crash.txt", "d.zip"]
        _ = try await session.stage(
            try names.enumerated().map { line, name in (line + 1, try NewShare(id: nil, name: name, folder: nil, createdAt: nil, size: 5)) })
        await #expect(throws: DatabaseError.self) { _ = try await session.finish() }
        let stats = try await database.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none)
        #expect(stats.count == 1 && stats.bytes == 10 && stats.types == ["pdf": .init(count: 1, bytes: 10)])
        #expect(try await queue.read(SQLiteRunningTotals.differences) == 0)
    }

    @Test func aRepairRebuildsTotalsThatDriftedAndTheChecksNameThem() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        try await database.sharedHistory.add("a.pdf", size: 10, at: "2021-01-17T10:00:00Z")
        try await database.sharedHistory.add("b.pdf", size: 20, at: "2021-01-18T10:00:00Z")
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE share_total SET count = 7 WHERE day = (SELECT min(day) FROM share_total)")
        }
        #expect(throws: StoreError.totalsDiffer(path: path, rows: 1)) { try SQLiteBackups.check(path) }
        #expect(try SQLiteRunningTotals.repair(databaseAt: path) == 1)
        #expect(try SQLiteBackups.check(path).live == 2)
        #expect(try await database.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none).count == 2)
    }
}
