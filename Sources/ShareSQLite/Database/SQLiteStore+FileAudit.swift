import Foundation
import GRDB
import ShareHistory

extension SQLiteStore {
    /// Checks the files beside the database at `path` against its blobs (those not in a bucket): each there and of its
    /// size (a failure naming the missing ones otherwise), and counts the files no blob names.
    public static func auditFiles(databaseAt path: String) throws -> FileAudit {
        let files = try SQLiteBlobFiles(database: path, reading: true)
        let blobs = try SQLiteBackups.readOnly(path).read { db in
            try Row.fetchAll(db, sql: "SELECT hash, size FROM share_blob WHERE object IS NULL").map { ($0["hash"] as String, $0["size"] as Int64) }
        }
        var audit = FileAudit()
        for (hash, size) in blobs {
            let found = (try? FileManager.default.attributesOfItem(atPath: files.blob(hash))[.size] as? NSNumber)??.int64Value
            if found == size {
                audit.files += 1
                audit.bytes += size
            } else {
                audit.missing.append(hash)
            }
        }
        guard audit.missing.isEmpty else { throw StoreError.missingBytes(path: path, count: audit.missing.count, hashes: audit.missing) }
        let named = Set(blobs.map(\.0))
        let enumerator = FileManager.default.enumerator(atPath: files.root + "/blobs")
        while let name = enumerator?.nextObject() as? String {
            let hash = (name as NSString).lastPathComponent
            guard hash.count == 64, !named.contains(hash) else { continue }
            audit.unclaimed += 1
            audit.unclaimedBytes += (enumerator?.fileAttributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return audit
    }
}

extension SQLiteBlobFiles {
    /// Gives `target` the files of the blobs the database at `database` names beside it (a backup's, or a history being
    /// restored; a bucket keeps its own), taken from `source`: a second name for each file (a copy where the file system has none; blobs never
    /// change once kept). A file `source` lacks fails it.
    static func carry(namedBy database: String, to target: SQLiteBlobFiles, from source: SQLiteBlobFiles) throws {
        let hashes = try SQLiteBackups.readOnly(database).read { db in
            try String.fetchAll(db, sql: "SELECT hash FROM share_blob WHERE object IS NULL")
        }
        for hash in hashes where !FileManager.default.fileExists(atPath: target.blob(hash)) {
            try FileManager.default.createDirectory(
                atPath: (target.blob(hash) as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            guard FileManager.default.fileExists(atPath: source.blob(hash)) else {
                throw StoreError.missingBytes(path: source.root, count: 1, hashes: [hash])
            }
            if link(source.blob(hash), target.blob(hash)) != 0 {
                try FileManager.default.copyItem(atPath: source.blob(hash), toPath: target.blob(hash))
            }
        }
    }
}

extension SQLiteStore {
    /// The objects the database at `path` names in a bucket: each blob's, with its size, and each upload's in progress.
    public static func bucketObjects(databaseAt path: String) throws -> [String: Int64?] {
        try SQLiteBackups.readOnly(path).read { db in
            var objects: [String: Int64?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT object, size FROM share_blob WHERE object IS NOT NULL") {
                objects[row["object"]] = row["size"] as Int64
            }
            for object in try String.fetchAll(db, sql: "SELECT object FROM share_upload WHERE object IS NOT NULL") { objects[object] = .some(nil) }
            return objects
        }
    }
}
