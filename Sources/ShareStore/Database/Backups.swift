import Foundation
import GRDB

/// Consistent copies of the history, taken while the daemon serves and writes, checked, and put back.
public enum Backups {
    /// What a backup (or a database) holds.
    public struct Summary: Sendable, CustomStringConvertible {
        public let path: String
        public let live: Int
        public let trashed: Int
        /// The last migration applied: the schema's version.
        public let schema: String
        public let bytes: Int64

        public var records: Int { live + trashed }

        public var description: String {
            "\(path): \(records == 1 ? "1 record" : "\(records) records") (\(live) live, \(trashed) in the trash), schema \(schema), \(bytes) bytes"
        }
    }

    /// Copies the database at `source` into the new file `destination` from one read snapshot (`VACUUM INTO`),
    /// so the copy is consistent however many writes the daemon makes meanwhile, then checks the copy.
    public static func backUp(databaseAt source: String, to destination: String) throws -> Summary {
        guard !FileManager.default.fileExists(atPath: destination) else { throw StoreError.exists(path: destination) }
        try ShareDatabase.refuseForeignFile(at: source)
        try readOnly(source).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
        return try check(destination)
    }

    /// Checks a database file: SQLite, undamaged (`PRAGMA integrity_check`), of a schema this program knows.
    public static func check(_ path: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.cannotOpen(path: path, reason: "no such file") }
        try ShareDatabase.refuseForeignFile(at: path)
        return try readOnly(path).inDatabase { db in
            let report = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            guard report == "ok" else { throw StoreError.damaged(path: path, report: report) }
            let migrator = SchemaMigrator.migrator
            let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
            guard unknown.isEmpty else { throw StoreError.newerSchema(path: path, unknownMigrations: unknown) }
            let schema = try String.fetchOne(db, sql: "SELECT max(identifier) FROM grdb_migrations") ?? "none"
            let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE trashed_at IS NULL") ?? 0
            let trashed = try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE trashed_at IS NOT NULL") ?? 0
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
            return Summary(path: path, live: live, trashed: trashed, schema: schema, bytes: bytes)
        }
    }

    /// Replaces the database at `target` by the backup at `backup`, checked first. Refused while a daemon has
    /// `target` open, and, without `force`, when the backup holds fewer records. The replaced database is kept
    /// aside as `<target>.replaced-<time>`; returns that path (nil when there was none) and the new summary.
    public static func restore(from backup: String, to target: String, force: Bool, now: Date = Date()) throws -> (aside: String?, restored: Summary)
    {
        let incoming = try check(backup)
        let lock = try DatabaseLock(database: target)
        var aside: String?
        if FileManager.default.fileExists(atPath: target) {
            let current = try check(target)
            guard force || incoming.records >= current.records else {
                throw StoreError.fewerRecords(backup: incoming.records, current: current.records)
            }
            // Fold the write-ahead log into the file, so that the file alone is the whole history put aside.
            try DatabaseQueue(path: target).writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
            aside = "\(target).replaced-\(stamp)"
            try FileManager.default.moveItem(atPath: target, toPath: aside!)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        }
        try readOnly(backup).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [target]) }
        withExtendedLifetime(lock) {}
        return (aside, try check(target))
    }

    private static func readOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
