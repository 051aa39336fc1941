import GRDB
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareStore

/// A thumbnail lives and dies with its record: one left behind by a purge would keep a picture the user deleted.
@Suite struct ThumbnailStoreTests {
    @Test func aThumbnailFollowsItsRecordThroughTheTrashAndIsForgottenWithIt() async throws {
        let path = try temporaryDatabasePath()
        let database = try ShareDatabase(path: path)
        let record = try await database.add("photo.jpg")
        let thumbnail = Thumbnail(image: Array("RIFF-not-checked-here".utf8))
        #expect(try await database.setThumbnail(id: record.id, thumbnail).thumbnail == true)
        try await database.trashShare(id: record.id)
        await #expect(throws: ShareError.notFound(id: record.id)) { try await database.thumbnail(id: record.id) }
        #expect(try await database.thumbnail(id: record.id, includeTrashed: true) == thumbnail)
        _ = try await database.restoreShare(id: record.id)
        #expect(try await database.share(id: record.id).thumbnail == true)
        try await database.purgeShare(id: record.id)
        let left = try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM share_thumbnail") }
        #expect(left == 0)
    }
}
