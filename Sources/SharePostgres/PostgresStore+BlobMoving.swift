import PostgresNIO
import ShareHistory

extension PostgresStore: BlobMoving {
    public func heldBlobs(after hash: String?, limit: Int) async throws -> [HeldBlob] {
        try await read { connection in
            var blobs: [HeldBlob] = []
            let rows = try await connection.query(
                """
                SELECT seq, hash, size FROM share_blob WHERE object IS NULL AND hash > \(hash ?? "") ORDER BY hash LIMIT \(limit)
                """, logger: logger)
            for try await (seq, hash, size) in rows.decode((Int64, String, Int64).self) {
                blobs.append(HeldBlob(hash: hash, size: size, bytes: PostgresBlob(store: self, seq: seq, hash: hash, size: size)))
            }
            return blobs
        }
    }

    /// The object is named and the chunks deleted in one statement: a download reading the chunks meanwhile breaks off,
    /// and resumes from the object.
    public func moveBlob(_ hash: String, to object: String) async throws -> Bool {
        try await write { connection in
            let rows = try await connection.query(
                """
                WITH moved AS (UPDATE share_blob SET object = \(object) WHERE hash = \(hash) AND object IS NULL RETURNING seq),
                    dropped AS (DELETE FROM share_blob_chunk c USING moved WHERE c.blob = moved.seq)
                SELECT count(*) FROM moved
                """, logger: logger)
            for try await count in rows.decode(Int64.self) { return count > 0 }
            return false
        }
    }
}
