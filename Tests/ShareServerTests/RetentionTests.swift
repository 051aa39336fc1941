import Logging
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareServer

/// `[database] trash_days` in one process, at a chosen moment: what has been in the trash longer goes for good,
/// what came later stays, and 0 keeps the trash for ever.
@Suite struct RetentionTests {
    private static let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    private static func daysBefore(_ days: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - days * Timestamp.millisecondsPerDay)
    }

    @Test(arguments: Backend.allCases)
    func theTrashIsPurgedPastTrashDaysAndNeverBefore(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let old = try await store.sharedHistory.add("old.pdf")
            let recent = try await store.sharedHistory.add("recent.pdf")
            let live = try await store.sharedHistory.add("live.pdf")
            try await store.sharedHistory.trashShare(id: old.id, now: Self.daysBefore(31))
            try await store.sharedHistory.trashShare(id: recent.id, now: Self.daysBefore(29))
            try await Retention(store: store, trashDays: 0, logger: Logger(label: "retention")).purge(now: Self.now)
            #expect(try await store.sharedHistory.share(id: old.id, includeTrashed: true).id == old.id, "0 keeps the trash for ever")
            try await Retention(store: store, trashDays: 30, logger: Logger(label: "retention")).purge(now: Self.now)
            await #expect(throws: ShareError.notFound(id: old.id)) { try await store.sharedHistory.share(id: old.id, includeTrashed: true) }
            #expect(try await store.sharedHistory.share(id: recent.id, includeTrashed: true).trashedAt != nil, "29 days in the trash: kept")
            #expect(try await store.sharedHistory.share(id: live.id).trashedAt == nil)
        }
    }
}
