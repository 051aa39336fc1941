import GRDB
import ShareHistory

extension SQLiteStore: BlobMoving {
    public func heldBlobs(after hash: String?, limit: Int) async throws -> [HeldBlob] {
        try await writer.read { [files] db in
            try Row.fetchAll(
                db, sql: "SELECT hash, size FROM share_blob WHERE object IS NULL AND hash > ? ORDER BY hash LIMIT ?",
                arguments: [hash ?? "", limit]
            ).map { row in
                let (hash, size): (String, Int64) = (row["hash"], row["size"])
                return HeldBlob(hash: hash, size: size, bytes: SQLiteBlob(path: files.blob(hash), hash: hash, size: size))
            }
        }
    }

    /// The file goes once the change is committed: a copy cut off between the two leaves a file nothing reads.
    public func moveBlob(_ hash: String, to object: String) async throws -> Bool {
        let moved = try await writer.write { db in
            try db.execute(sql: "UPDATE share_blob SET object = ? WHERE hash = ? AND object IS NULL", arguments: [object, hash])
            return db.changesCount > 0
        }
        if moved { files.remove(blob: hash) }
        return moved
    }
}
