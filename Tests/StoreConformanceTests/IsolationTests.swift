import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Per-user histories in the store: alice neither reads, changes nor detects bob's records (his ids are as unknown
/// to her as ids nobody holds), and her quota refuses what would pass it without losing anything else.
@Suite struct IsolationTests {
    private struct Neighbours {
        let database: any ShareStore
        let alice: any HistoryStore
        let bob: any HistoryStore
        let bobs: ShareRecord

        init(_ database: any ShareStore) async throws {
            self.database = database
            alice = database.history(of: "alice", quota: nil)
            bob = database.history(of: "bob", quota: nil)
            bobs = try await bob.add("bob report.pdf", size: 500, folder: "/reports", at: "2021-01-17T10:00:00Z", id: "BOB-1")
            try await bob.trashShare(id: try await bob.add("bob old.pdf", size: 7, id: "BOB-2").id)
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherUsersIdIsAnsweredExactlyAsAnIdNobodyHolds(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let history = try await Neighbours(database)
            for id in ["BOB-1", "BOB-2", "NOBODY-1"] {
                let expected = ShareError.notFound(id: id)
                await #expect(throws: expected) { try await history.alice.share(id: id, includeTrashed: true) }
                await #expect(throws: expected) {
                    try await history.alice.updateShare(id: id, SharePatch(name: "mine.pdf", folder: nil), includeTrashed: true)
                }
                await #expect(throws: expected) { try await history.alice.trashShare(id: id, includeTrashed: true) }
                await #expect(throws: expected) { try await history.alice.restoreShare(id: id) }
                await #expect(throws: expected) { try await history.alice.purgeShare(id: id) }
                await #expect(throws: expected) { try await history.alice.events(id: id, after: 0, limit: 10) }
            }
            #expect(try await history.bob.share(id: "BOB-1") == history.bobs, "bob's record is untouched")
            #expect(try await history.bob.share(id: "BOB-2", includeTrashed: true).trashedAt != nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func listingsStatisticsUsageAndExportsHoldOnlyTheUsersOwnRecords(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let history = try await Neighbours(database)
            let mine = try await history.alice.add("alice report.pdf", size: 3, folder: "/reports", at: "2021-01-17T11:00:00Z")
            var everything = ShareQuery()
            everything.nameWords = ["report"]
            everything.folder = "/reports"
            #expect(try await history.alice.listShares(everything).records == [mine])
            var trash = ShareQuery()
            trash.trashed = true
            #expect(try await history.alice.listShares(trash).records.isEmpty)
            let stats = try await history.alice.stats(ShareQuery(), by: nil)
            #expect(stats.count == 1 && stats.bytes == 3 && stats.types.keys.sorted() == ["pdf"])
            #expect(try await history.alice.usage() == ShareStats.Total(count: 1, bytes: 3))
            func lines(everyone: Bool) async throws -> [String] {
                let export =
                    everyone
                    ? try await history.database.exportEveryHistory(after: 0, limit: 100, includingTrash: true)
                    : try await history.alice.exportChunk(after: 0, limit: 100, includingTrash: true)
                return String(decoding: export.lines, as: UTF8.self).split(separator: "\n").map(String.init)
            }
            #expect(try await lines(everyone: false) == [String(decoding: try WireJSON.encoder().encode(mine), as: UTF8.self)])
            let everyone = try await lines(everyone: true)
            #expect(everyone.count == 3 && everyone[0].contains(#""name":"bob report.pdf","owner":"bob","size":500"#), "\(everyone)")
            #expect(everyone[2].contains(#""owner":"alice""#), "an admin's export says whose each record is")
            #expect(
                try await history.database.users() == [
                    UserUsage(user: "alice", count: 1, bytes: 3), UserUsage(user: "bob", count: 1, bytes: 500),
                ])
        }
    }

    /// Ids stay unique across histories: an import carrying bob's id skips that line, as for any id taken, and
    /// leaves his record as it was.
    @Test(arguments: Backend.allCases)
    func anImportWithAnotherUsersIdSkipsThatLineAndKeepsTheRest(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let history = try await Neighbours(database)
            let session = try await history.alice.beginImport(by: "alice")
            let problems = try await session.stage([
                (1, try NewShare(id: "BOB-1", name: "taken.pdf", folder: nil, createdAt: nil, size: 1)),
                (2, try NewShare(id: "ALICE-1", name: "mine.pdf", folder: nil, createdAt: nil, size: 1)),
            ])
            #expect(problems.map(\.line) == [1])
            _ = try await session.finish()
            #expect(try await history.alice.listShares(ShareQuery()).records.map(\.id) == ["ALICE-1"])
            #expect(try await history.bob.share(id: "BOB-1") == history.bobs)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCreateOrRestorePastTheQuotaIsRefusedNamingTheQuotaAndWhatIsUsed(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let alice = database.history(of: "alice", quota: 100)
            let big = try await alice.add("big.zip", size: 60)
            try await alice.trashShare(id: big.id)
            try await alice.add("other.zip", size: 90)
            await #expect(throws: ShareError.quotaExceeded(quota: 100, used: 90)) { try await alice.add("more.zip", size: 11) }
            await #expect(throws: ShareError.quotaExceeded(quota: 100, used: 90)) { try await alice.restoreShare(id: big.id) }
            try await alice.add("fits.zip", size: 10)
            try await alice.add("empty.txt", size: 0)
            #expect(try await alice.usage() == ShareStats.Total(count: 3, bytes: 100), "a full history still takes empty files")
            #expect(try await database.history(of: "bob", quota: 100).add("bob.zip", size: 100).size == 100, "quotas are per user")
        }
    }

    @Test(arguments: Backend.allCases)
    func anImportPastTheQuotaKeepsNoneOfItsRecords(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let alice = database.history(of: "alice", quota: 100)
            try await alice.add("kept.zip", size: 50)
            let session = try await alice.beginImport(by: "alice")
            _ = try await session.stage(
                try (1...6).map { line in (line, try NewShare(id: "IMPORT-\(line)", name: "part\(line).zip", folder: nil, createdAt: nil, size: 10)) }
            )
            await #expect(throws: ShareError.quotaExceeded(quota: 100, used: 50)) { _ = try await session.finish() }
            #expect(try await alice.usage() == ShareStats.Total(count: 1, bytes: 50))
            await #expect(throws: ShareError.notFound(id: "IMPORT-1")) { try await alice.share(id: "IMPORT-1") }
        }
    }

    /// A history's tag (what its ETags are made of) changes with its own changes only: another user's creates,
    /// renames, trashing, batches, imports and the retention of their trash never show in it, so nobody can count
    /// another's activity from 200s and 304s.
    @Test(arguments: Backend.allCases)
    func aHistorysTagChangesWithItsOwnChangesOnly(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let alice = database.history(of: "alice", quota: nil)
            let bob = database.history(of: "bob", quota: nil)
            try await alice.add("alice.pdf")
            let alicesTag = try await alice.historyTag()
            let bobs = try await bob.add("bob.pdf", id: "BOB-1")
            try await bob.updateShare(id: bobs.id, SharePatch(name: "bob 2.pdf", folder: "/b"), includeTrashed: false, by: "bob")
            _ = try await bob.batch(.trash, .ids(["BOB-1"]), by: "bob")
            let session = try await bob.beginImport(by: "bob")
            _ = try await session.stage([(1, try NewShare(id: nil, name: "imported.pdf", folder: nil, createdAt: nil, size: 1))])
            _ = try await session.finish()
            let tomorrow = Timestamp(millisecondsSinceEpoch: Timestamp.now().millisecondsSinceEpoch + Timestamp.millisecondsPerDay)
            #expect(try await database.purgeTrash(trashedBefore: tomorrow) == 1)
            #expect(try await alice.historyTag() == alicesTag, "bob's changes leave alice's tag as it was")
            let bobsTag = try await bob.historyTag()
            try await alice.add("alice 2.pdf")
            #expect(try await alice.historyTag() != alicesTag, "alice's own change gives her a new tag")
            #expect(try await bob.historyTag() == bobsTag)
        }
    }

    /// A listing and statistics read their tag with their rows (on one session, where the store has them): the same
    /// tag as the history's alone, the same page and totals as read alone, none of them another user's.
    @Test(arguments: Backend.allCases)
    func aListingsAndStatisticsTagsAreTheHistorysOwn(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let history = try await Neighbours(database)
            let alice = history.alice
            try await alice.add("alice.pdf")
            let first = try await alice.taggedPage(ShareQuery(), at: .now())
            #expect(first.tag == (try await alice.historyTag()))
            #expect(try first.page.records.map(\.name) == ["alice.pdf"])
            #expect(first.page.body == (try await alice.listShares(ShareQuery())).body)
            let counted = try await alice.taggedStats(ShareQuery(), by: StatsPeriod.none, at: .now())
            #expect(counted.tag == first.tag)
            #expect(counted.stats == (try await alice.stats(ShareQuery(), by: StatsPeriod.none)))
            #expect(counted.stats.count == 1)
            try await history.bob.add("bob 2.pdf")
            #expect(try await alice.taggedPage(ShareQuery(), at: .now()).tag == first.tag, "bob's change is not alice's")
            try await alice.add("alice 2.pdf")
            let second = try await alice.taggedPage(ShareQuery(), at: .now())
            #expect(second.tag != first.tag)
            let recounted = try await alice.taggedStats(ShareQuery(), by: StatsPeriod.none, at: .now())
            #expect(recounted.tag == second.tag)
            #expect(recounted.stats.count == 2 && recounted.stats.types["pdf"]?.count == 2)
            #expect(try second.page.records.map(\.name).sorted() == ["alice 2.pdf", "alice.pdf"])
        }
    }
}
