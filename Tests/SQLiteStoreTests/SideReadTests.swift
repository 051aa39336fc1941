import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Synchronization
import Testing

@testable import ShareSQLite

/// A long listing race runs its ordered reads on a second reader beside its other reads. Its page counts only when
/// it read the same history as the race: a page from another version would be a wrong answer.
@Suite struct SideReadTests {
    /// 300 names holding "report", in a file with a pool of readers.
    private static func history() async throws -> (SQLiteStore, DatabasePool) {
        let database = try SQLiteStore(path: try temporaryDatabasePath())
        for index in 0..<300 { try await database.sharedHistory.add("report \(index).pdf") }
        return (database, try #require(database.writer as? DatabasePool))
    }

    /// A search sorted by name that reads the names in order or the ones the trigram index holds: with candidates
    /// limited to 10, "report" is common.
    private static let planner = ListingPlanner(
        SQLiteListing(
            query: try! ShareQuery(parameters: [("q", "report"), ("sort", "name")], defaultZone: ZonedCalendar(zone: .gmt)), candidateLimit: 10))

    /// A count the test changes while a second reader looks at it.
    private final class Asked: Sendable {
        let count = Atomic(0)
    }

    private static var scans: [OrderedScan] { planner.orderedReads().map(OrderedScan.init) }

    @Test func theSecondReaderFindsTheOrderedReadsPage() async throws {
        let (_, pool) = try await Self.history()
        let (version, expected) = try await pool.read { db in (try HistoryVersion.stored(db), try Self.planner.race(Self.scans, [], db)) }
        let side = SideRead(Self.planner, on: SecondReader(pool: pool, isFree: { true }), version: version)
        #expect(side.reads(Self.scans))
        while !side.hasPage && side.reads(Self.scans) { await Task.yield() }
        #expect(side.hasPage)
        #expect(side.page == expected)
        #expect(expected.count == 101)
    }

    @Test func aSecondReaderOnAnotherVersionOfTheHistoryGivesUp() async throws {
        let (database, pool) = try await Self.history()
        let version = try await pool.read(HistoryVersion.stored)
        try await database.sharedHistory.add("report 300.pdf")
        let side = SideRead(Self.planner, on: SecondReader(pool: pool, isFree: { true }), version: version)
        #expect(side.reads(Self.scans))
        while side.reads(Self.scans) { await Task.yield() }
        #expect(!side.hasPage, "the race reads its ordered reads itself")
    }

    @Test func theSecondReaderStartsInTheFirstRoundTheMachineHasRoomForIt() async throws {
        let (_, pool) = try await Self.history()
        let version = try await pool.read(HistoryVersion.stored)
        let waiting = Asked()
        waiting.count.store(1, ordering: .relaxed)
        let side = SideRead(Self.planner, on: SecondReader(pool: pool, isFree: { waiting.count.load(ordering: .relaxed) == 0 }), version: version)
        #expect(!side.reads(Self.scans), "another heavy read waits for the lane")
        waiting.count.store(0, ordering: .relaxed)
        #expect(side.reads(Self.scans), "the next round, nobody waits")
        waiting.count.store(1, ordering: .relaxed)
        #expect(side.reads(Self.scans), "once started, it reads on")
        side.stop()
    }

    @Test func aReadWhoseWorkIsLimitedTakesNoSecondReader() async throws {
        let (_, pool) = try await Self.history()
        let asked = Asked()
        let second = SecondReader(pool: pool, isFree: { asked.count.add(1, ordering: .relaxed).newValue > 0 })
        let listing = SQLiteListing(query: Self.planner.query, candidateLimit: 10, secondReader: second)
        let limited = try await pool.read { db in try WorkBudget.run(db, work: 10_000_000) { try listing.fetch(db).records } }
        #expect(asked.count.load(ordering: .relaxed) == 0, "a read of the quick lane may be cut short: it reads alone")
        let unlimited = try await pool.read { db in try listing.fetch(db).records }
        #expect(asked.count.load(ordering: .relaxed) == 1)
        #expect(unlimited == limited)
        #expect(limited?.count == 100)
    }
}
