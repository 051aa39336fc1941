import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func setThumbnail(id: String, _ thumbnail: Thumbnail, includeTrashed: Bool) async throws -> ShareRecord {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            var (seq, record) = try await PostgresRows.fetch(
                id: id, owner: owner, includeTrashed: includeTrashed, locking: true, connection, logger: store.logger)
            try await connection.query(
                """
                INSERT INTO share_thumbnail (share_seq, tag, image) VALUES (\(seq), \(thumbnail.tag), \(ByteBuffer(bytes: thumbnail.image)))
                ON CONFLICT (share_seq) DO UPDATE SET tag = excluded.tag, image = excluded.image
                """, logger: store.logger)
            try await connection.query("UPDATE share SET thumbnail = true WHERE seq = \(seq) AND NOT thumbnail", logger: store.logger)
            record.thumbnail = true
            return record.shown(recordForm.judgedNow())
        }
    }

    public func thumbnail(id: String, includeTrashed: Bool) async throws -> Thumbnail {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let (seq, _) = try await PostgresRows.fetch(id: id, owner: owner, includeTrashed: includeTrashed, connection, logger: store.logger)
            let rows = try await connection.query("SELECT image, tag FROM share_thumbnail WHERE share_seq = \(seq)", logger: store.logger)
            for try await (image, tag) in rows.decode((ByteBuffer, String).self) { return Thumbnail(image: Array(buffer: image), tag: tag) }
            throw ShareError.noThumbnail(id: id)
        }
    }

    public func removeThumbnail(id: String, includeTrashed: Bool) async throws {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            let (seq, _) = try await PostgresRows.fetch(
                id: id, owner: owner, includeTrashed: includeTrashed, locking: true, connection, logger: store.logger)
            let removed = try await store.count(
                "WITH removed AS (DELETE FROM share_thumbnail WHERE share_seq = \(seq) RETURNING 1) SELECT count(*) FROM removed", connection)
            guard removed > 0 else { throw ShareError.noThumbnail(id: id) }
            try await connection.query("UPDATE share SET thumbnail = false WHERE seq = \(seq)", logger: store.logger)
        }
    }
}
