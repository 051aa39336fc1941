import Foundation
import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// The advisory lock a finishing upload takes for its bytes' hash, so that two uploads of the same bytes finishing
    /// at once on two nodes keep one blob; forgetting a blob takes it too (migration 0010), never under a new share.
    static let blobLock: Int32 = 0x424C

    public func dropStaleUploads(now: Timestamp) async throws -> Int {
        let before = now.millisecondsSinceEpoch - UploadStatus.patience
        let ids = try await write { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    """
                    WITH dropped AS (DELETE FROM share_upload WHERE touched_at < \(before) RETURNING id, blob, object, multipart),
                    freed AS (DELETE FROM share_blob WHERE seq IN (SELECT blob FROM dropped) AND hash IS NULL),
                    aborted AS (
                        INSERT INTO share_object_freed (object, multipart, freed_at)
                        SELECT object, multipart, \(now.millisecondsSinceEpoch) FROM dropped WHERE multipart IS NOT NULL
                        ON CONFLICT DO NOTHING),
                    imports AS (DELETE FROM share_import WHERE started_at < \(now.millisecondsSinceEpoch - PostgresImport.abandonedAfter))
                    SELECT id FROM dropped
                    """, logger: logger)
                var ids: [String] = []
                for try await id in rows.decode(String.self) { ids.append(id) }
                return ids
            }
        }
        for id in ids { digests.forget(id) }
        return ids.count
    }

    public func storedBlobs() async throws -> (count: Int, bytes: Int64) {
        try await read { connection in
            let rows = try await connection.query(
                "SELECT count(*)::bigint, coalesce(sum(size), 0)::bigint FROM share_blob WHERE hash IS NOT NULL", logger: logger)
            for try await (count, bytes) in rows.decode((Int, Int64).self) { return (count, bytes) }
            return (0, 0)
        }
    }
}

extension PostgresStore {
    /// Checks every blob a share points at for chunks that add up to its size (a failure naming the ones that do
    /// not), and counts the blobs no share points at.
    public func auditFiles() async throws -> FileAudit {
        try await lease(statementTimeout: 0) { [self] connection in
            let rows = try await connection.query(
                """
                SELECT b.hash, b.size, coalesce((SELECT sum(octet_length(c.bytes)) FROM share_blob_chunk c WHERE c.blob = b.seq), 0)::bigint,
                    EXISTS (SELECT 1 FROM share s WHERE s.blob = b.seq)
                FROM share_blob b WHERE b.hash IS NOT NULL AND b.object IS NULL
                """, logger: logger)
            var audit = FileAudit()
            for try await (hash, size, stored, claimed) in rows.decode((String, Int64, Int64, Bool).self) {
                if stored != size {
                    audit.missing.append(hash)
                } else if claimed {
                    audit.files += 1
                    audit.bytes += size
                } else {
                    audit.unclaimed += 1
                    audit.unclaimedBytes += size
                }
            }
            guard audit.missing.isEmpty else {
                throw StoreError.missingBytes(path: "the PostgreSQL database", count: audit.missing.count, hashes: audit.missing)
            }
            return audit
        }
    }
}
