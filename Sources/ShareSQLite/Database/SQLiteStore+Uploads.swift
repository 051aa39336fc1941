import Foundation
import GRDB
import ShareHistory
import ShareKit
import _NIOFileSystem

extension SQLiteStore {
    public func dropStaleUploads(now: Timestamp) async throws -> Int {
        let ids = try await writer.write { [appending] db in
            // One receiving bytes now is not stale, however long ago its request began.
            let stale = try String.fetchAll(
                db, sql: "SELECT id FROM share_upload WHERE touched_at < ?", arguments: [now.millisecondsSinceEpoch - UploadStatus.patience]
            ).filter { !appending.contains($0) }
            try Self.releaseUploadObjects(ids: stale, at: now, db)
            for id in stale { try db.execute(sql: "DELETE FROM share_upload WHERE id = ?", arguments: [id]) }
            return stale
        }
        for id in ids {
            files.remove(upload: id)
            digests.forget(id)
        }
        return ids.count
    }

    public func storedBlobs() async throws -> (count: Int, bytes: Int64) {
        try await writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(size), 0) FROM share_blob")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// Queues for the bucket what uploads `ids` hold there, before their rows go: each multipart upload to abort, and
    /// the object one may have made already (its completion done, its share not).
    static func releaseUploadObjects(ids: [String], at now: Timestamp, _ db: Database) throws {
        for id in ids {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO share_object_freed (object, multipart, freed_at)
                    SELECT object, coalesce(multipart, ''), :now FROM share_upload WHERE id = :id AND object IS NOT NULL
                    UNION ALL SELECT object, '', :now FROM share_upload WHERE id = :id AND object IS NOT NULL
                    """, arguments: ["now": now.millisecondsSinceEpoch, "id": id])
        }
    }

    /// Deletes in the bucket the objects no blob needs any more, and aborts the multipart uploads no upload does, a
    /// hundred at a time: each is forgotten once the store has done it, so one it refused is tried again at the next
    /// run. Returns how many were done.
    public func releaseFreedObjects() async throws -> Int {
        guard let bucket else { return 0 }
        let freed = try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT object, multipart FROM share_object_freed ORDER BY freed_at LIMIT 100").map {
                ($0["object"] as String, $0["multipart"] as String)
            }
        }
        for (object, multipart) in freed {
            try await bucket.release(object, multipart: multipart)
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM share_object_freed WHERE object = ? AND multipart = ?", arguments: [object, multipart])
            }
        }
        return freed.count
    }

    /// Whether the write in progress queued the file of a blob it forgot.
    static func anyFreedBlobs(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM share_blob_freed)")) ?? false
    }

    /// Deletes the files of blobs no share points at any more (queued when their last share went).
    func removeFreedBlobs() async throws {
        try await writer.write { [files] db in try Self.removeFreedBlobs(db, files) }
    }

    static func removeFreedBlobs(_ writer: any DatabaseWriter, _ files: SQLiteBlobFiles) throws {
        try writer.write { db in try removeFreedBlobs(db, files) }
    }

    /// Under the write lock: a blob kept again meanwhile (the same bytes uploaded) keeps its file.
    private static func removeFreedBlobs(_ db: Database, _ files: SQLiteBlobFiles) throws {
        for hash in try String.fetchAll(db, sql: "DELETE FROM share_blob_freed RETURNING hash")
        where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM share_blob WHERE hash = ?)", arguments: [hash]) != true {
            files.remove(blob: hash)
        }
    }

    /// Runs file writes, reporting a full or read-only disk as `ShareError.storageUnavailable` (507).
    static func writingFiles<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as FileSystemError {
            guard let cause = error.cause as? FileSystemError.SystemCallError else { throw error }
            throw SQLiteBlobFiles.failure("write an upload's bytes", cause.errno.rawValue)
        }
    }
}
