import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    public func setThumbnail(id: String, _ thumbnail: Thumbnail, includeTrashed: Bool) async throws -> ShareRecord {
        try await change { db in
            let owner = try ownerNumber(db)
            try ThumbnailRow.store(thumbnail, seq: try SQLiteRow.seq(id: id, owner: owner, includeTrashed: includeTrashed, db), db)
            return try SQLiteRow.fetch(id: id, owner: owner, includeTrashed: includeTrashed, recordForm.judgedNow(), db)
        }
    }

    public func thumbnail(id: String, includeTrashed: Bool) async throws -> Thumbnail {
        try await store.writer.read { db in
            let seq = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, db)
            guard let thumbnail = try ThumbnailRow.fetch(seq: seq, db) else { throw ShareError.noThumbnail(id: id) }
            return thumbnail
        }
    }

    public func removeThumbnail(id: String, includeTrashed: Bool) async throws {
        try await change { db in
            let seq = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, db)
            guard try ThumbnailRow.remove(seq: seq, db) else { throw ShareError.noThumbnail(id: id) }
        }
    }
}
