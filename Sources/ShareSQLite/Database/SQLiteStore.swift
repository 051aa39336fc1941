import Foundation
import GRDB
import GRDBSQLite
import ShareHistory
import ShareKit

/// The share histories in SQLite: one file in WAL mode with durable commits and concurrent readers, as `shared`
/// opens it, or any GRDB database (an in-memory one in tests). Each history is a `SQLiteHistory`.
public struct SQLiteStore: ShareStore {
    let writer: any DatabaseWriter
    public let path: String
    /// The history's version, and the changes this process committed to each owner's history.
    let version = HistoryVersion()
    let expiries = SQLiteExpiries()
    /// The history's epoch (`HistoryEpoch`), fixed while it is served.
    let historyEpoch: String
    /// Held while the database is served from its file (`DatabaseLock`).
    private let lock: DatabaseLock?
    let trigramCounts = TrigramCounts()
    /// Where the bytes behind shares are kept, and the hashes and writers of uploads in progress.
    let files: SQLiteBlobFiles
    let digests = UploadDigests()
    let appending = UploadsAppending()
    let ownerNumbers = SQLiteOwnerNumbers()
    /// The lanes listings, statistics and exports read through, so that heavy ones leave readers for quick ones.
    public var lanes = ReadLanes()
    /// How records show their links.
    public var recordForm = RecordForm.plain
    /// The bucket new files go to (`[files] store = "s3"`); nil: files beside the database.
    public var bucket: (any BlobBucket)?

    /// Opens (creating it and its folder if needed) and migrates the database at `path`. After a spike, SQLite
    /// truncates the write-ahead log back to `logLimitBytes`.
    ///
    /// A file that is not a SQLite database is refused before SQLite touches it, so it is never modified.
    public init(path: String, logLimitBytes: Int = 32 * 1_048_576) throws {
        try Self.refuseForeignFile(at: path)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = try DatabaseLock(database: path)
        try DatabaseFile.create(path)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw SQLiteFileError.notADatabase(path: path)
        } catch {
            throw SQLiteFileError.cannotOpen(path: path, reason: "\(error)")
        }
        try self.init(writer: pool, path: path, lock: lock)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_size_limit = \(logLimitBytes)") }
    }

    /// Migrates and serves `writer`; `path` names it in messages.
    public init(writer: any DatabaseWriter, path: String = ":memory:") throws {
        try self.init(writer: writer, path: path, lock: nil)
    }

    private init(writer: any DatabaseWriter, path: String, lock: DatabaseLock?) throws {
        self.lock = lock
        self.writer = writer
        self.path = path
        files = try SQLiteBlobFiles(database: path)
        try SQLiteMigrations.migrate(writer, path: path)
        try Self.removeFreedBlobs(writer, files)
        historyEpoch = try writer.read(HistoryEpoch.read)
        try StoredSearchKeys.refresh(writer)
        // The one writer connection gets a larger page cache (24 MiB): a write touches a dozen indexes, and with
        // SQLite's default 2 MB it spills pages to the WAL over and over.
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -24576") }
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        // Writers from other processes wait instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // FULL: a commit (and so a 201) survives a crash of the process or of the machine.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // 6 MiB of pages per connection (SQLite's default is 2): the pages searches keep returning to (trigram
            // lists, recent rows) are then read from memory rather than from the file, a system call each.
            try db.execute(sql: "PRAGMA cache_size = -6144")
        }
        return configuration
    }

    /// Bounds the page caches of every SQLite connection in this process together to `bytes` (the soft heap limit):
    /// one connection's cache may still grow to its own `cache_size` while the others are small.
    public static func limitCaches(toBytes bytes: Int) {
        sqlite3_soft_heap_limit64(Int64(bytes))
    }

    /// Every SQLite file starts with this header; an empty or missing file is fine to create.
    static func refuseForeignFile(at path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else {
            throw SQLiteFileError.notADatabase(path: path)
        }
    }

    /// The history of `owner` ('' is nobody's), whose live records may hold `quota` bytes.
    public func history(of owner: String, quota: Int64?) -> SQLiteHistory {
        SQLiteHistory(store: self, owner: owner, quota: quota, recordForm: recordForm)
    }

    /// Runs a write that may change several histories, which `body` names by their owners' numbers; when it changed
    /// any row, the history's version grows in the same transaction, and their tags once it has committed.
    func changing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> (T, Set<Int64>)) async throws -> T {
        let (value, changed, freed) = try await Self.storing {
            try await writer.write { db -> (T, Set<Int64>, Bool) in
                let before = db.totalChangesCount
                let (value, owners) = try body(db)
                guard db.totalChangesCount != before else { return (value, [], false) }
                try HistoryVersion.raise(db)
                return (value, owners, try Self.anyFreedBlobs(db))
            }
        }
        version.count(changed)
        // The files of blobs whose last share went: only once the transaction that forgot them has committed.
        if freed { try await removeFreedBlobs() }
        return value
    }

    /// Runs a write, reporting a disk that cannot take it (full, read-only) as `ShareError.storageUnavailable`.
    /// The transaction is rolled back, so nothing already stored is touched, and the next write tries again.
    static func storing<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw ShareError.storageUnavailable("the disk is full")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw ShareError.storageUnavailable("the database is read-only")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_IOERR {
            throw ShareError.storageUnavailable("the disk failed to write (\(error.message ?? "I/O error"))")
        }
    }

    static func quotaUsage(owner: Int64, _ db: Database) throws -> QuotaUsage {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT coalesce(sum(size), 0) FROM share INDEXED BY share_trashed_files
                                WHERE owner = ? AND trashed_at IS NOT NULL AND blob IS NOT NULL),
                           (SELECT coalesce(sum(length), 0) FROM share_upload WHERE owner = ?)
                    """), arguments: [owner, owner])
        let live = try SQLiteRunningTotals.sums(owner: owner, trashed: false, db).total.bytes
        return QuotaUsage(live: live, trashedFiles: row?[0] ?? 0, uploading: row?[1] ?? 0)
    }

    /// Makes a record of `new` and stores it with `store`; a generated id found taken (vanishingly rare) is
    /// drawn again, a given one is the client's conflict.
    static func insert(_ new: NewShare, now: Timestamp, _ store: (ShareRecord) throws -> Void) throws -> ShareRecord {
        for _ in 0..<8 {
            let record = new.record(at: now)
            do {
                try store(record)
                return record
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                if let id = new.id { throw ShareError.idTaken(id: id) }
            }
        }
        throw StoreError.noFreeID
    }

    public func purgeTrash(trashedBefore time: Timestamp) async throws -> Int {
        try await changing { db in
            let owners = try Int64.fetchAll(
                db, sql: "DELETE FROM share WHERE trashed_at < ? RETURNING owner", arguments: [time.millisecondsSinceEpoch])
            return (owners.count, Set(owners))
        }
    }
}
