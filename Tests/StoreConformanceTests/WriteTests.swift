import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Writes and the trash: what a user sees after each change, on every store.
@Suite struct WriteTests {
    @Test(arguments: Backend.allCases)
    func aCreatedRecordIsFoundByItsIdInAnyCase(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.sharedHistory.add("Report.PDF", size: 1234, at: "2021-01-17T21:34:56.789+09:00")
            #expect(created.type == .pdf)
            #expect(created.folder == "/")
            #expect(created.createdAt.description == "2021-01-17T12:34:56.789Z")
            #expect(try await database.sharedHistory.share(id: created.id.lowercased()) == created)
        }
    }

    @Test(arguments: Backend.allCases)
    func renamingRederivesTheTypeAndTheSearchKey(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.sharedHistory.add("notes.txt")
            let renamed = try await database.sharedHistory.updateShare(id: created.id, SharePatch(name: "Holiday.JPG", folder: nil))
            #expect(renamed.name == "Holiday.JPG" && renamed.type == .image)
            var query = ShareQuery()
            query.nameWords = ["holiday"]
            #expect(try await database.sharedHistory.listShares(query).records == [renamed])
        }
    }

    @Test(arguments: Backend.allCases)
    func movingChangesOnlyTheFolder(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.sharedHistory.add("a.pdf")
            let moved = try await database.sharedHistory.updateShare(id: created.id, SharePatch(name: nil, folder: "/reports//2021/"))
            #expect(moved.folder == "/reports/2021")
            #expect(moved.name == created.name)
            #expect(moved.type == created.type)
            #expect(moved.createdAt == created.createdAt)
        }
    }

    @Test(arguments: Backend.allCases)
    func aGivenIdThatExistsInAnyCaseIsAConflict(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("a.pdf", id: "Legacy-1")
            await #expect(throws: ShareError.idTaken(id: "LEGACY-1")) { try await database.sharedHistory.add("b.pdf", id: "LEGACY-1") }
        }
    }

    @Test(arguments: Backend.allCases)
    func trashHidesRestoreBringsBackPurgeRemoves(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let record = try await database.sharedHistory.add("a.pdf")
            try await database.sharedHistory.trashShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.sharedHistory.share(id: record.id) }
            #expect(try await database.sharedHistory.listShares(ShareQuery()).records.isEmpty)
            #expect(try await database.sharedHistory.share(id: record.id, includeTrashed: true).trashedAt != nil)
            var trash = ShareQuery()
            trash.trashed = true
            #expect(try await database.sharedHistory.listShares(trash).records.map(\.id) == [record.id])

            #expect(try await database.sharedHistory.restoreShare(id: record.id) == record)
            try await database.sharedHistory.trashShare(id: record.id)
            try await database.sharedHistory.purgeShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.sharedHistory.share(id: record.id, includeTrashed: true) }
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.sharedHistory.purgeShare(id: record.id) }
        }
    }

    @Test(arguments: Backend.allCases)
    func purgingTheTrashTakesOnlyWhatWasTrashedBeforeTheLimitAndChangesTheVersion(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let old = try await database.sharedHistory.add("old.txt")
            let recent = try await database.sharedHistory.add("recent.txt")
            let live = try await database.sharedHistory.add("live.txt")
            try await database.sharedHistory.trashShare(id: old.id, now: Timestamp(rfc3339: "2021-01-01T00:00:00Z")!)
            try await database.sharedHistory.trashShare(id: recent.id, now: Timestamp(rfc3339: "2021-03-01T00:00:00Z")!)
            let tag = try await database.sharedHistory.historyTag()
            #expect(try await database.purgeTrash(trashedBefore: Timestamp(rfc3339: "2021-02-01T00:00:00Z")!) == 1)
            #expect(try await database.sharedHistory.historyTag() != tag)
            await #expect(throws: ShareError.notFound(id: old.id)) { try await database.sharedHistory.share(id: old.id, includeTrashed: true) }
            #expect(try await database.sharedHistory.share(id: recent.id, includeTrashed: true).trashedAt != nil)
            #expect(try await database.sharedHistory.share(id: live.id).trashedAt == nil)
            let unchanged = try await database.sharedHistory.historyTag()
            #expect(try await database.purgeTrash(trashedBefore: Timestamp(rfc3339: "2021-02-01T00:00:00Z")!) == 0)
            #expect(try await database.sharedHistory.historyTag() == unchanged, "nothing purged, nothing changed")
        }
    }
}
