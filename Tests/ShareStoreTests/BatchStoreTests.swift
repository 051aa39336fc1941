import GRDB
import ShareKit
import Testing

@testable import ShareStore

/// Batches change many records in a few statements: each record must still get the event its own request would
/// write, and the running totals must follow. Were they not, a share's history would miss its move, or the storage
/// bar count shares that were purged.
@Suite struct BatchStoreTests {
    private static func query(_ parameters: [(name: String, value: String)]) throws -> ShareQuery {
        try ShareQuery(parameters: parameters, defaultZone: ZonedCalendar(zone: .gmt))
    }

    @Test func aBatchByFilterChangesEveryMatchEachWithItsEvent() async throws {
        let queue = try DatabaseQueue()
        let database = try ShareDatabase(writer: queue)
        for index in 0..<30 { try await database.add("r\(index).pdf", size: 10, folder: index % 3 == 0 ? "/a" : "/b") }
        let events = { (action: String) in
            try await queue.read { db in
                try Row.fetchAll(db, sql: "SELECT from_value, to_value, by FROM share_event WHERE action = ?", arguments: [action])
            }
        }

        #expect(try await database.batch(.move(folder: "/c"), .matching(Self.query([("folder", "/a")])), by: "bob") == 10)
        let moved = try await events("moved")
        #expect(moved.count == 10 && moved.allSatisfy { $0[0] == "/a" && $0[1] == "/c" && $0[2] == "bob" }, "\(moved)")
        #expect(try await database.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 10)
        #expect(try await events("trashed").count == 10)
        #expect(try await database.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 0, "the trash is not live")
        #expect(try await database.batch(.restore, .matching(Self.query([("q", "r1")])), by: "bob") == 3, "r12, r15, r18: the trash's")
        #expect(try await events("restored").count == 3)
        #expect(try await database.batch(.purge, .matching(Self.query([("trashed", "true")])), by: "bob") == 7)
        let trashedLeft = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM share_event WHERE action = 'trashed'") }
        #expect(trashedLeft == 3, "the purged records' events went with them")
        #expect(try await database.usage() == ShareStats.Total(count: 23, bytes: 230))
        #expect(try await queue.read(RunningTotals.differences) == 0)
    }

    @Test func idsNamedTwiceAreChangedOnceAndAMissingOneChangesNothing() async throws {
        let database = try ShareDatabase.temporary()
        try await database.add("a.pdf", id: "A")
        try await database.add("b.pdf", id: "B")
        #expect(try await database.batch(.trash, .ids(["A", "a", "B"])) == 2)
        await #expect(throws: ShareError.notFound(id: "GONE")) { try await database.batch(.restore, .ids(["A", "GONE"])) }
        #expect(try await database.usage().count == 0, "all or none")
        #expect(try await database.batch(.restore, .ids(["B"])) == 1)
        #expect(try await database.usage().count == 1)
    }
}
