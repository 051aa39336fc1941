import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareSQLite

/// The running totals answer statistics exactly as the records do. Were they to drift, the page's storage bar,
/// `share stats` and quotas would show numbers that no listing adds up to.
@Suite struct RunningTotalsTests {
    private static let zones = [
        "UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe",
        "America/Sao_Paulo", "Europe/Amsterdam",
    ]
    /// Filters the totals hold, alone and together; the windows start and end inside days, on local midnights and
    /// at times of day no zone has as midnight.
    private static let filters: [[(name: String, value: String)]] = [
        [], [("type", "pdf")], [("type", "image,zip")], [("date", "2021-03-14")], [("date", "2021-11-07"), ("type", "pdf,doc")],
        [("from", "2021-03-01"), ("to", "2021-11-30")], [("from", "1937-01-01T07:13:00Z"), ("to", "2021-10-31T01:30:00+02:00")],
        [("from", "2021-06-01"), ("type", "image")], [("to", "1965-12-31")], [("trashed", "true")],
        [("trashed", "true"), ("type", "txt"), ("from", "2021-01-01")], [("folder", "/"), ("recursive", "true")],
    ]

    /// Two users change their histories side by side: each one's statistics are their records' alone.
    @Test func statisticsFromTheTotalsAreTheRecordsOwnAfterEveryKindOfChange() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        var alice = RandomChanges(database: database.history(of: "alice", quota: nil))
        var bob = RandomChanges(database: database.history(of: "bob", quota: nil), seed: 23)
        for _ in 0..<5 {
            try await alice.apply(40)
            try await bob.apply(20)
            #expect(try await queue.read(RunningTotals.differences) == 0)
            try await Self.compareEveryQuery(queue, owners: ["alice", "bob"])
        }
        #expect(alice.kindsMade == RandomChanges.Kind.allCases.count, "every kind of change was tried")
    }

    /// `shared assign` gives the records of nobody to a user: their totals go with them.
    @Test func assignedRecordsTakeTheirTotalsToTheirNewOwner() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        var changes = RandomChanges(database: database)
        try await changes.apply(80)
        let before = try await database.usage()
        let assigned = try await database.assignUnowned(to: "carol")
        #expect(assigned == before.count + (try await database.recordCounts().trashed))
        #expect(try await database.history(of: "carol", quota: nil).usage() == before)
        #expect(try await database.usage() == ShareStats.Total(count: 0, bytes: 0))
        #expect(try await queue.read(RunningTotals.differences) == 0)
        try await Self.compareEveryQuery(queue, owners: ["carol"], zones: ["UTC", "Asia/Kathmandu"])
    }

    /// Periods are worked out for the days that hold records only: days over nine millennia cost four rows.
    @Test func aHistoryOverMillenniaIsAnsweredFromItsFewDaysAtTheEdgesOfTime() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        for time in ["0000-01-01T00:00:00Z", "0001-06-01T12:00:00Z", "2021-03-14T05:30:00Z", "9999-12-31T23:59:59.999Z"] {
            try await database.add("at-\(time.prefix(4)).pdf", size: 3, at: time)
        }
        try await Self.compareEveryQuery(queue, zones: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"], filters: [[], [("type", "pdf")]])
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
        #expect(try await queue.read(RunningTotals.differences) == 0)
    }

    @Test func aRepairRebuildsTotalsThatDriftedAndTheChecksNameThem() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        try await database.add("a.pdf", size: 10, at: "2021-01-17T10:00:00Z")
        try await database.add("b.pdf", size: 20, at: "2021-01-18T10:00:00Z")
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE share_total SET count = 7 WHERE day = (SELECT min(day) FROM share_total)")
        }
        #expect(throws: StoreError.totalsDiffer(path: path, rows: 1)) { try Backups.check(path) }
        #expect(try RunningTotals.repair(databaseAt: path) == 1)
        #expect(try Backups.check(path).live == 2)
        #expect(try await database.stats(ShareQuery(), by: StatsPeriod.none).count == 2)
    }

    /// Every filter of `filters`, in every zone of `zones`, by every period: the totals' answer against the
    /// records', as the JSON a client reads.
    private static func compareEveryQuery(
        _ queue: DatabaseQueue, owners: [String] = [""], zones: [String] = zones, filters: [[(name: String, value: String)]] = filters
    ) async throws {
        for owner in owners {
            let number = try await queue.read { db in try SQLiteOwnerNumbers().number(of: owner, db) }
            try await compareEveryQuery(owner, zones: zones, filters: filters) { query, period in
                try await queue.read { db in
                    let fromTotals = try #require(
                        try SQLiteTotalsStatistics(query: query, owner: number).fetch(by: period, evenIfRecordsCostLess: true, db))
                    return (
                        fromTotals, try SQLiteStatistics(query: query, owner: number, trigramCounts: TrigramCounts()).fetchFromRecords(by: period, db)
                    )
                }
            }
        }
    }

    /// Every filter of `filters`, in every zone of `zones`, by every period: `answers`' two statistics of a query (from
    /// the totals, from the records) compared as the JSON a client reads.
    static func compareEveryQuery(
        _ label: String, zones: [String] = zones, filters: [[(name: String, value: String)]] = filters,
        _ answers: (ShareQuery, StatsPeriod?) async throws -> (fromTotals: ShareStats, fromRecords: ShareStats)
    ) async throws {
        let encoder = WireJSON.encoder()
        for zone in zones {
            let calendar = try #require(ZonedCalendar(identifier: zone))
            for filter in filters {
                let query = try ShareQuery(parameters: filter, defaultZone: calendar)
                #expect(StatisticsFromTotals.canAnswer(query))
                for period in [nil] + StatsPeriod.allCases {
                    let (fromTotals, fromRecords) = try await answers(query, period)
                    let same = try encoder.encode(fromTotals) == encoder.encode(fromRecords)
                    #expect(same, "\(label) \(zone) \(filter) by \(period?.rawValue ?? "default"): \(fromTotals) against \(fromRecords)")
                }
            }
        }
    }
}
