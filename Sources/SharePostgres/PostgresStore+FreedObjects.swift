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
            if multipart.isEmpty {
                try await bucket.delete(object)
            } else {
                try await bucket.abortUpload(object, upload: multipart)
            }
            _ = try await write { connection in
                try await connection.query(
                    "DELETE FROM share_object_freed WHERE object = \(object) AND multipart = \(multipart)", logger: logger)
            }
            done += 1
        }
        return done
    }
}
