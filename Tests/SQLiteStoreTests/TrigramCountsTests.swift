import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// Remembered trigram counts steer searches; if one stayed wrong after names were added, every search with
/// that trigram would take a slower path for as long as the daemon runs.
@Suite struct TrigramCountsTests {
    @Test func aCountFoundStaleIsCountedAgain() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let counts = TrigramCounts()
        let search = { try await queue.read { db in try counts.candidates(for: ["xyz"], owner: 0, limit: 3, db) } }
        let before = try await search()
        #expect(before == [])
        #expect(counts.remembered("xyz", owner: 0) == 0)
        for index in 0..<5 { try await database.sharedHistory.add("xyz-\(index).pdf") }
        // Five names now hold it: too many candidates for the limit, and the count is forgotten...
        let stale = try await search()
        #expect(stale == nil)
        #expect(counts.remembered("xyz", owner: 0) == nil)
        // ...so the next search counts it again, and knows it is not rare.
        let recounted = try await search()
        #expect(recounted == nil)
        #expect(counts.remembered("xyz", owner: 0) == 5)
    }

    @Test func shortTextIsCountedAndNamedLikeATrigram() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let rare = try await database.sharedHistory.add("quiz.txt")
        for index in 0..<3 { try await database.sharedHistory.add("plain-\(index).txt") }
        let queue = try DatabaseQueue(path: path)
        let counts = TrigramCounts()
        // "qu" begins a trigram of one name only: that name is the one candidate, and the count is remembered.
        let named = try await queue.read { db in
            try counts.candidates(for: ["qu"], owner: 0, limit: 3, db).map { rows in
                try String.fetchAll(db, sql: "SELECT id FROM share WHERE seq IN (SELECT value FROM json_each(?))", arguments: ["\(rows)"])
            }
        }
        #expect(named == [rare.id])
        #expect(counts.remembered("qu", owner: 0) == 1)
        // "t" is in every name, more than the limit allows: no candidates.
        #expect(try await queue.read { db in try counts.candidates(for: ["t"], owner: 0, limit: 3, db) } == nil)
        #expect(counts.remembered("t", owner: 0) == 4)
    }
}
