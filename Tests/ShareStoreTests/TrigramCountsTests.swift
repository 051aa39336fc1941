import GRDB
import ShareKit
import Testing

@testable import ShareStore

/// Remembered trigram counts steer searches; if one stayed wrong after names were added, every search with
/// that trigram would take a slower path for as long as the daemon runs.
@Suite struct TrigramCountsTests {
    @Test func aCountFoundStaleIsCountedAgain() async throws {
        let path = try temporaryDatabasePath()
        let database = try ShareDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        let counts = TrigramCounts()
        let search = { try await queue.read { db in try counts.candidates(for: "xyz", limit: 3, db) } }
        let before = try await search()
        #expect(before == [])
        #expect(counts.remembered("xyz") == 0)
        for index in 0..<5 { try await database.add("xyz-\(index).pdf") }
        // Five names now hold it: too many candidates for the limit, and the count is forgotten...
        let stale = try await search()
        #expect(stale == nil)
        #expect(counts.remembered("xyz") == nil)
        // ...so the next search counts it again, and knows it is not rare.
        let recounted = try await search()
        #expect(recounted == nil)
        #expect(counts.remembered("xyz") == 5)
    }

    @Test func theTrigramsOfATextAreItsRunsOfThreeScalars() {
        #expect(TrigramCounts.trigrams(of: "ab") == [])
        #expect(TrigramCounts.trigrams(of: "abcab") == ["abc", "bca", "cab"])
        #expect(TrigramCounts.trigrams(of: "报告书") == ["报告书"])
        #expect(TrigramCounts.trigrams(of: "e\u{301}x") == ["e\u{301}x"])
    }
}
