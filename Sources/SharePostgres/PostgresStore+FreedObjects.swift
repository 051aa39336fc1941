import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// Deletes in the bucket the objects no blob needs any more, and aborts the multipart uploads no upload does, a
    /// hundred at a time: each is forgotten once the store has done it, so one it refused is tried again at the next
    /// run. Returns how many were done.
    public func releaseFreedObjects() async throws -> Int {
        guard let bucket else { return 0 }
        let freed = try await read { connection in
            var freed: [(object: String, multipart: String)] = []
            let rows = try await connection.query("SELECT object, multipart FROM share_object_freed ORDER BY freed_at LIMIT 100", logger: logger)
            for try await row in rows.decode((String, String).self) { freed.append(row) }
            return freed
        }
        var done = 0
        for (object, multipart) in freed {
            try await bucket.release(object, multipart: multipart)
            _ = try await write { connection in
                try await connection.query(
                    "DELETE FROM share_object_freed WHERE object = \(object) AND multipart = \(multipart)", logger: logger)
            }
            done += 1
        }
        return done
    }
}

extension PostgresStore {
    /// The objects the database names in a bucket: each blob's whole one, with its size, and each upload's in
    /// progress (nil: any size).
    public func bucketObjects() async throws -> [String: Int64?] {
        try await lease(statementTimeout: 0) { connection in
            var objects: [String: Int64?] = [:]
            let rows = try await connection.query(
                """
                SELECT object, size FROM share_blob WHERE object IS NOT NULL AND hash IS NOT NULL
                UNION ALL SELECT object, NULL FROM share_upload WHERE object IS NOT NULL
                """, logger: logger)
            for try await (object, size) in rows.decode((String, Int64?).self) { objects[object] = size }
            return objects
        }
    }
}
