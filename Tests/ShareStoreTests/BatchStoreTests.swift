import ShareKit
import StoreTestSupport
import Testing

@testable import ShareStore

/// Batches change many records in a few statements: each record must still get the event its own request would
/// write, and the running totals must follow. Were they not, a share's history would miss its move, or the storage
/// bar count shares that were purged.
@Suite struct BatchStoreTests {
    private static func query(_ parameters: [(name: String, value: String)]) throws -> ShareQuery {
        try ShareQuery(parameters: parameters, defaultZone: ZonedCalendar(zone: .gmt))
    }

    @Test(arguments: Backend.allCases)
    func aBatchByFilterChangesEveryMatchEachWithItsEvent(_ backend: Backend) async throws {
        try await backend.withStore { database in
            var records: [ShareRecord] = []
            for index in 0..<30 { records.append(try await database.add("r\(index).pdf", size: 10, folder: index % 3 == 0 ? "/a" : "/b")) }
            // Every event of the records still kept, of one kind.
            let events = { (action: ShareEvent.Action) in
                var found: [ShareEvent] = []
                for record in records {
                    guard let page = try? await database.events(id: record.id, after: 0, limit: 100) else { continue }
                    found += page.events.filter { $0.action == action }
                }
                return found
            }

            #expect(try await database.batch(.move(folder: "/c"), .matching(Self.query([("folder", "/a")])), by: "bob") == 10)
            let moved = try await events(.moved)
            #expect(moved.count == 10 && moved.allSatisfy { $0.from == "/a" && $0.to == "/c" && $0.by == "bob" }, "\(moved)")
            #expect(try await database.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 10)
            #expect(try await events(.trashed).count == 10)
            #expect(try await database.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 0, "the trash is not live")
            #expect(try await database.batch(.restore, .matching(Self.query([("q", "r1")])), by: "bob") == 3, "r12, r15, r18: the trash's")
            #expect(try await events(.restored).count == 3)
            #expect(try await database.batch(.purge, .matching(Self.query([("trashed", "true")])), by: "bob") == 7)
            #expect(try await events(.trashed).count == 3, "the purged records are gone, their events with them")
            #expect(try await database.usage() == ShareStats.Total(count: 23, bytes: 230))
            #expect(try await database.recordCounts() == (live: 23, trashed: 0))
        }
    }

    @Test(arguments: Backend.allCases)
    func idsNamedTwiceAreChangedOnceAndAMissingOneChangesNothing(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.add("a.pdf", id: "A")
            try await database.add("b.pdf", id: "B")
            #expect(try await database.batch(.trash, .ids(["A", "a", "B"])) == 2)
            await #expect(throws: ShareError.notFound(id: "GONE")) { try await database.batch(.restore, .ids(["A", "GONE"])) }
            #expect(try await database.usage().count == 0, "all or none")
            #expect(try await database.batch(.restore, .ids(["B"])) == 1)
            #expect(try await database.usage().count == 1)
        }
    }
}
