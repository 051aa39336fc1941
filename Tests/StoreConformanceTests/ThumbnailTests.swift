import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// A thumbnail lives and dies with its record: one left behind by a purge would keep a picture the user deleted.
@Suite struct ThumbnailTests {
    @Test(arguments: Backend.allCases)
    func aThumbnailFollowsItsRecordThroughTheTrashAndIsForgottenWithIt(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let record = try await database.sharedHistory.add("photo.jpg")
            let thumbnail = Thumbnail(image: Array("RIFF-not-checked-here".utf8))
            #expect(try await database.sharedHistory.setThumbnail(id: record.id, thumbnail).thumbnail == true)
            try await database.sharedHistory.trashShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.sharedHistory.thumbnail(id: record.id) }
            #expect(try await database.sharedHistory.thumbnail(id: record.id, includeTrashed: true) == thumbnail)
            _ = try await database.sharedHistory.restoreShare(id: record.id)
            #expect(try await database.sharedHistory.share(id: record.id).thumbnail == true)
            try await database.sharedHistory.removeThumbnail(id: record.id)
            #expect(try await database.sharedHistory.share(id: record.id).thumbnail == nil)
            await #expect(throws: ShareError.noThumbnail(id: record.id)) { try await database.sharedHistory.thumbnail(id: record.id) }
            _ = try await database.sharedHistory.setThumbnail(id: record.id, thumbnail)
            try await database.sharedHistory.purgeShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) {
                try await database.sharedHistory.thumbnail(id: record.id, includeTrashed: true)
            }
            // Its id is free again, and a new record under it has no picture of the old one's.
            let again = try await database.sharedHistory.add("photo.jpg", id: record.id)
            await #expect(throws: ShareError.noThumbnail(id: again.id)) { try await database.sharedHistory.thumbnail(id: again.id) }
        }
    }
}
