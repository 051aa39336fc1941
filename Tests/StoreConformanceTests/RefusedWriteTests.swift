import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// A write the store refuses leaves no trace: the records, their events, the trash, the statistics, the users and the
/// history's tag are what they were. Were it otherwise, a user told "refused" would find half of the change kept.
@Suite struct RefusedWriteTests {
    @Test(arguments: Backend.allCases, RefusedWrite.allCases)
    func aRefusedWriteChangesNothing(_ backend: Backend, _ write: RefusedWrite) async throws {
        try await backend.withStore { store in
            let history = store.history(of: "ann", quota: 100)
            let trashed = try await history.add("old.zip", size: 50, at: "2021-01-18T10:00:00Z", id: "OLD-1")
            try await history.trashShare(id: trashed.id)
            let kept = try await history.add("kept.pdf", size: 60, folder: "/reports", at: "2021-01-17T10:00:00Z", id: "KEPT-1")
            try await store.history(of: "ben", quota: nil).add("ben.pdf", size: 7, id: "BEN-1")
            let before = try await Snapshot(store, history, kept: kept.id)

            await #expect(throws: (any Error).self) { try await write.attempt(history) }

            let after = try await Snapshot(store, history, kept: kept.id)
            #expect(after == before, "\(write)")
        }
    }

    /// A user's first write that is refused (an import past the quota, an id taken, an import abandoned) leaves
    /// nothing behind: the next new user's history is their own, and the refused user's later records are theirs.
    @Test(arguments: Backend.allCases, RefusedWrite.firstWrites)
    func aRefusedFirstWriteLeavesNoTraceForTheNextNewUser(_ backend: Backend, _ write: RefusedWrite) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("nobody's.pdf", id: "BEN-1")
            let ann = database.history(of: "ann", quota: 10)
            await #expect(throws: (any Error).self) { try await write.attempt(ann) }

            let bens = try await database.history(of: "ben", quota: nil).add("ben.pdf", size: 3)
            let anns = try await ann.add("ann.pdf", size: 2)

            #expect(try await ann.listShares(ShareQuery()).records == [anns], "ann sees her record alone")
            #expect(try await database.history(of: "ben", quota: nil).listShares(ShareQuery()).records == [bens])
            await #expect(throws: ShareError.notFound(id: bens.id)) { try await ann.share(id: bens.id) }
            #expect(try await database.users() == [UserUsage(user: "ann", count: 1, bytes: 2), UserUsage(user: "ben", count: 1, bytes: 3)])
        }
    }
}

/// Writes the store refuses, each for its own reason, against `aRefusedWriteChangesNothing`'s history (a quota of 100
/// bytes holding 60 live and 50 in the trash; ben holds BEN-1).
enum RefusedWrite: String, CaseIterable, Sendable, CustomStringConvertible {
    case createWithAnIDTaken
    case createWithAnotherUsersID
    case createPastTheQuota
    case restorePastTheQuota
    case renameAMissingRecord
    case batchNamingAMissingID
    case batchRestorePastTheQuota
    case importPastTheQuota
    case importAbandoned
    case uploadPastTheQuota

    /// Those a user's very first write can meet, before anything of theirs is kept (BEN-1 is then nobody's).
    static let firstWrites: [RefusedWrite] = [
        .createWithAnotherUsersID, .createPastTheQuota, .batchNamingAMissingID, .importPastTheQuota, .importAbandoned, .uploadPastTheQuota,
    ]

    var description: String { rawValue }

    func attempt(_ history: any HistoryStore) async throws {
        switch self {
        case .createWithAnIDTaken: try await history.add("again.pdf", id: "kept-1")
        case .createWithAnotherUsersID: try await history.add("theirs.pdf", id: "BEN-1")
        case .createPastTheQuota: try await history.add("big.zip", size: 41)
        case .restorePastTheQuota: _ = try await history.restoreShare(id: "OLD-1")
        case .renameAMissingRecord: _ = try await history.updateShare(id: "NOPE-1", try SharePatch(name: "x.pdf", folder: nil))
        case .batchNamingAMissingID: _ = try await history.batch(.trash, .ids(["KEPT-1", "NOPE-1"]), by: "ann")
        case .batchRestorePastTheQuota: _ = try await history.batch(.restore, .ids(["OLD-1"]), by: "ann")
        case .importPastTheQuota:
            let session = try await history.beginImport(by: "ann")
            _ = try await session.stage([(1, try NewShare(id: nil, name: "a.pdf", folder: nil, createdAt: nil, size: 20))])
            _ = try await session.stage([(2, try NewShare(id: nil, name: "b.pdf", folder: nil, createdAt: nil, size: 21))])
            _ = try await session.finish()
        case .importAbandoned:
            let session = try await history.beginImport(by: "ann")
            _ = try await session.stage([(1, try NewShare(id: nil, name: "half.pdf", folder: nil, createdAt: nil, size: 1))])
            await session.discard()
            throw CancellationError()
        case .uploadPastTheQuota:
            _ = try await history.startUpload(try NewShare(id: nil, name: "film.mp4", folder: nil, createdAt: nil, size: 41), now: .now())
        }
    }
}

/// What a user can read of the store after a write: everything a refused one must leave as it was.
private struct Snapshot: Equatable {
    let export: String
    let everyone: String
    let events: [ShareEvent]
    let stats: ShareStats
    let trash: ShareStats
    let usage: ShareStats.Total
    let users: [UserUsage]
    let counts: [Int]
    let tag: String

    init(_ store: any ShareStore, _ history: any HistoryStore, kept: String) async throws {
        export = String(decoding: try await history.exportChunk(after: 0, limit: 100, includingTrash: true).lines, as: UTF8.self)
        everyone = String(decoding: try await store.exportEveryHistory(after: 0, limit: 100, includingTrash: true).lines, as: UTF8.self)
        events = try await history.events(id: kept, after: 0, limit: 100).events
        stats = try await history.stats(ShareQuery(), by: .day)
        var trashed = ShareQuery()
        trashed.trashed = true
        trash = try await history.stats(trashed, by: .day)
        usage = try await history.usage()
        users = try await store.users()
        let (live, inTrash) = try await store.recordCounts()
        counts = [live, inTrash]
        tag = try await history.historyTag()
    }
}
