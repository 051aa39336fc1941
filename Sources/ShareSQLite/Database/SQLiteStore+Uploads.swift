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

    /// A SQLite history's files are beside it: what it lets go is deleted with the commit that lets it go.
    public func releaseFreedObjects() async throws -> Int { 0 }

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
