import Foundation
import GRDB
import ShareHistory

/// Consistent copies of the history, taken while the daemon serves and writes, checked, and put back.
public enum SQLiteBackups {
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

    /// How long a file's checks may take: a hostile file can make SQLite work without end.
    public static let checkTimeLimit = Duration.seconds(300)

    /// Copies the database at `source` into the new file `destination` from one read snapshot (`VACUUM INTO`),
    /// so the copy is consistent however many writes the daemon makes meanwhile, then checks the copy. A copy that
    /// fails is removed: no empty or partial file is left to pass for a backup.
    public static func backUp(databaseAt source: String, to destination: String) throws -> Summary {
        try SQLiteStore.refuseForeignFile(at: source)
        guard try DatabaseFile.create(destination) else { throw SQLiteFileError.exists(path: destination) }
        do {
            try readOnly(source).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
            let summary = try check(destination)
            try SQLiteBlobFiles.carry(
                namedBy: destination, to: try SQLiteBlobFiles(database: destination, reading: true),
                from: try SQLiteBlobFiles(database: source, reading: true))
            return summary
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            try? FileManager.default.removeItem(atPath: destination + ".files")
            throw error
        }
    }

    /// Checks a database file: SQLite, undamaged (`PRAGMA integrity_check`), of a schema this program knows and
    /// made, holding records that pass the field rules (`BackupContents`); within `timeLimit`.
    public static func check(_ path: String, timeLimit: Duration = checkTimeLimit) throws -> Summary {
        try summary(path, timeLimit: timeLimit) { db in try BackupContents.verify(db, path: path) }
    }

    /// `check`, and every record in the history of the user it was written for (`OwnerRecords`): what `shared check`
    /// asks of the database it serves.
    public static func checkServed(_ path: String, timeLimit: Duration = checkTimeLimit) throws -> Summary {
        do {
            return try summary(path, timeLimit: timeLimit) { db in
                try BackupContents.verify(db, path: path)
                try OwnerRecords.verify(db, path: path)
            }
        } catch SQLiteFileError.foreignContents(let path, let reason) {
            // The history being served is no backup: what it should not hold is said as such.
            throw StoreError.notAsWritten(path: path, reason: reason)
        }
    }

    /// What the database at `path` holds, after `verify` and the integrity and version checks.
    private static func summary(_ path: String, timeLimit: Duration, verify: (Database) throws -> Void = { _ in }) throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteFileError.cannotOpen(path: path, reason: "no such file") }
        try SQLiteStore.refuseForeignFile(at: path)
        return try withTimeLimit(timeLimit, on: try readOnly(path), path: path) { db in
            let report = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            guard report == "ok" else { throw SQLiteFileError.damaged(path: path, report: report) }
            let migrator = SQLiteMigrations.migrator
            let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
            guard unknown.isEmpty else { throw StoreError.newerSchema(path: path, unknownMigrations: unknown) }
            try verify(db)
            let schema = try String.fetchOne(db, sql: "SELECT max(identifier) FROM grdb_migrations") ?? "none"
            let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE trashed_at IS NULL") ?? 0
            let trashed = try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE trashed_at IS NOT NULL") ?? 0
            return Summary(path: path, live: live, trashed: trashed, schema: schema, bytes: DatabaseFile.size(path))
        }
    }

    /// Replaces the database at `target` by the backup at `backup`, checked first. Refused while a daemon has
    /// `target` open (by any name), for a backup that is `target` itself, and, without `force`, when the backup
    /// holds fewer records. The backup is copied beside `target` and checked again, then put in its place in
    /// one rename: `target` is never missing, and a failure leaves it as it was. The replaced database is kept
    /// aside as `<target>.replaced-<time>`; returns that path (nil when there was none) and the new summary.
    public static func restore(from backup: String, to target: String, force: Bool, now: Date = Date()) throws -> (aside: String?, restored: Summary)
    {
        // The real file, wherever a link points: it is what is checked, put aside and replaced.
        let target = DatabaseFile.resolved(target)
        let lock = try DatabaseLock(database: target)
        if let incoming = DatabaseFile.identity(backup), let current = DatabaseFile.identity(target), incoming == current {
            throw SQLiteFileError.sameFile(backup: backup, target: target)
        }
        let incoming = try check(backup)
        let exists = FileManager.default.fileExists(atPath: target)
        if exists {
            let current = try summary(target, timeLimit: checkTimeLimit)
            guard force || incoming.records >= current.records else {
                throw SQLiteFileError.fewerRecords(backup: incoming.records, current: current.records)
            }
        }
        let staged = "\(target).restoring"
        try? FileManager.default.removeItem(atPath: staged)
        try DatabaseFile.create(staged)
        do {
            try readOnly(backup).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [staged]) }
            _ = try check(staged)
            try newEpoch(staged)
            // The files first: files no share needs yet are harmless, a share without its file is not.
            try SQLiteBlobFiles.carry(
                namedBy: staged, to: try SQLiteBlobFiles(database: target, reading: true), from: try SQLiteBlobFiles(database: backup, reading: true))
            var aside: String?
            if exists {
                // Fold the write-ahead log into the file, so that the file alone is the whole history put aside.
                _ = try DatabaseQueue(path: target).writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                aside = try keepAside(target, at: now)
            }
            guard rename(staged, target) == 0 else {
                throw SQLiteFileError.cannotOpen(path: target, reason: "cannot put the restored copy in place: \(String(cString: strerror(errno)))")
            }
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
            withExtendedLifetime(lock) {}
            return (aside, try check(target))
        } catch {
            try? FileManager.default.removeItem(atPath: staged)
            throw error
        }
    }

    /// Gives `target` a second name, `<target>.replaced-<time>` (`-2`, `-3`… after it when a restore in the same second
    /// took it), copying it where the file system has no links: the rename of a restore then gives `target` the
    /// restored file, and this name keeps the one it replaced.
    private static func keepAside(_ target: String, at now: Date) throws -> String {
        let stamp = "\(target).replaced-" + ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
        for attempt in 1...1_000 {
            let aside = attempt == 1 ? stamp : "\(stamp)-\(attempt)"
            if link(target, aside) == 0 { return aside }
            if errno == EEXIST { continue }
            guard !FileManager.default.fileExists(atPath: aside) else { continue }
            try FileManager.default.copyItem(atPath: target, toPath: aside)
            return aside
        }
        throw SQLiteFileError.cannotOpen(path: target, reason: "every name for the replaced database is taken: \(stamp)-…")
    }

    /// Gives the restored history a new epoch: the tags of what was served before can never match it again, even
    /// where its version number comes back to the same value.
    private static func newEpoch(_ path: String) throws {
        try DatabaseQueue(path: path).write { db in try HistoryEpoch.renew(db) }
    }

    /// Runs `body` on `queue`, interrupting SQLite when it takes longer than `limit`.
    private static func withTimeLimit<T>(_ limit: Duration, on queue: DatabaseQueue, path: String, _ body: (Database) throws -> T) throws -> T {
        let interrupt = DispatchWorkItem { queue.interrupt() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(limit.components.seconds * 1000)), execute: interrupt)
        defer { interrupt.cancel() }
        do {
            return try queue.inDatabase(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            throw SQLiteFileError.checksTookTooLong(path: path, seconds: Int(limit.components.seconds))
        }
    }

    static func readOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
