import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// The trigram index names the rows a search reads; a name it missed would be missing from search results
/// whenever the planner reads the index instead of testing every row.
@Suite struct NameIndexTests {
    @Test func textOfAnyLengthAnywhereInANameIsFoundThroughTheIndex() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let first = try await database.sharedHistory.add("ab")
        let single = try await database.sharedHistory.add("x")
        let middle = try await database.sharedHistory.add("cabd.pdf")
        let renamed = try await database.sharedHistory.add("old name")
        let purged = try await database.sharedHistory.add("zab")
        _ = try await database.sharedHistory.updateShare(id: renamed.id, SharePatch(name: "new-ab", folder: nil))
        try await database.sharedHistory.purgeShare(id: purged.id)
        let queue = try DatabaseQueue(path: path)
        func ids(_ text: String) async throws -> Set<String> {
            let rows = NameIndex.rows(holding: [text], owner: 0)
            return Set(
                try await queue.read { db in
                    try SQLRequest<String>(literal: "SELECT id FROM share WHERE seq IN (\(rows))").fetchAll(db)
                })
        }
        // At a name's start, in its middle, as its last characters, a whole name of one character.
        #expect(try await ids("ab") == [first.id, middle.id, renamed.id])
        #expect(try await ids("b") == [first.id, middle.id, renamed.id])
        #expect(try await ids("x") == [single.id])
        #expect(try await ids("d.p") == [middle.id])
        // A rename forgets the old name's trigrams; a purge forgets the row.
        #expect(try await ids("ol") == [])
        #expect(try await ids("z") == [])
    }

    /// Each history's names are its own part of the index: were they not, a search of a small history would read a
    /// large neighbour's names, and a record given an owner would be found in neither history.
    @Test func aSearchIsNamedOnlyItsOwnHistorysRows() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let before = try await database.sharedHistory.add("report before users.pdf")
        let alice = database.history(of: "alice", quota: nil)
        let bob = database.history(of: "bob", quota: nil)
        let alices = try await alice.add("alice report.pdf")
        let bobs = try await bob.add("bob report.pdf")
        #expect(try await database.assignUnowned(to: "alice") == 1)
        let queue = try DatabaseQueue(path: path)
        func ids(_ text: String, of user: String) async throws -> Set<String> {
            try await queue.read { db in
                let owner = try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = ?", arguments: [user]) ?? -1
                return Set(
                    try SQLRequest<String>(literal: "SELECT id FROM share WHERE seq IN (\(NameIndex.rows(holding: [text], owner: owner)))").fetchAll(
                        db)
                )
            }
        }
        for text in ["report", "re"] {
            #expect(try await ids(text, of: "alice") == [alices.id, before.id], "\(text)")
            #expect(try await ids(text, of: "bob") == [bobs.id], "\(text)")
        }
    }

    /// The race asks for a text's rows within its budget: a short text held by many names of other histories must
    /// not make it read them all to find a small history's few, and a text of trigrams is not read past its limit.
    @Test func aShortTextsRowsAreTakenOnlyWhenTheirEntriesFitTheBudget() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let bob = database.history(of: "bob", quota: nil)
        for index in 0..<20 { try await bob.add("report \(index).pdf") }
        let alices = try await database.history(of: "alice", quota: nil).add("re.txt")
        let queue = try DatabaseQueue(path: path)
        let alice = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = 'alice'") ?? -1 }
        func rows(_ text: String, upTo limit: Int, readingAtMost entries: Int) async throws -> [String]? {
            try await queue.read { db in
                try NameIndex.rows(holding: [text], owner: alice, upTo: limit, readingAtMost: entries, db).map { rows in
                    try String.fetchAll(db, sql: "SELECT id FROM share WHERE seq IN (SELECT value FROM json_each(?))", arguments: ["\(rows)"])
                }
            }
        }
        // "re" begins a trigram of each of the 21 names: 21 entries at least.
        #expect(try await rows("re", upTo: 5, readingAtMost: 10) == nil)
        #expect(try await rows("re", upTo: 5, readingAtMost: 100) == [alices.id])
        // Read in full, they are all given, past the limit too: the race keeps them for the round they fit.
        #expect(try await rows("re", upTo: 0, readingAtMost: 100) == [alices.id])
        // A trigram is sought in alice's part of the index alone, whatever bob holds.
        #expect(try await rows("re.", upTo: 1, readingAtMost: 0) == [alices.id])
        #expect(try await rows("rep", upTo: 1, readingAtMost: 0) == [])
        _ = try await database.history(of: "alice", quota: nil).add("re.pdf")
        #expect(try await rows("re.", upTo: 1, readingAtMost: 0) == nil, "two rows, more than the limit")
        #expect(try await rows("re.", upTo: 2, readingAtMost: 0)?.count == 2)
    }

    @Test func wordsAreLookedUpByTheirTrigramsOrTheLongestWhenAllAreShorter() {
        #expect(NameIndex.keys(of: []) == [])
        #expect(NameIndex.keys(of: ["a"]) == ["a"])
        #expect(NameIndex.keys(of: ["报告"]) == ["报告"])
        #expect(NameIndex.keys(of: ["abcab"]) == ["abc", "bca", "cab"])
        #expect(NameIndex.keys(of: ["报告书"]) == ["报告书"])
        #expect(NameIndex.keys(of: ["e\u{301}x"]) == ["e\u{301}x"])
        #expect(NameIndex.keys(of: ["abcd", "x", "cde"]) == ["abc", "bcd", "cde"], "a short word beside long ones is tested row by row")
        #expect(NameIndex.keys(of: ["x", "yz"]) == ["yz"])
    }
}
