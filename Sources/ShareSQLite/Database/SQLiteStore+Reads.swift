import GRDB
import GRDBSQLite
import ShareHistory
import ShareKit

extension SQLiteStore {
    /// The database file and its write-ahead log, when the history is in a file.
    public func bytesOnDisk() -> [(part: String, bytes: Int64)] {
        guard writer is DatabasePool else { return [] }
        return [("database", DatabaseFile.size(path)), ("wal", DatabaseFile.size(path + "-wal"))]
    }

    /// The memory SQLite holds in this process, nearly all of it its connections' page caches.
    public func cacheBytes() -> Int64? { sqlite3_memory_used() }

    /// The reader a listing's long race may run its ordered reads on beside the others, while no other heavy read
    /// waits: a file's pool has several readers, a database in memory one connection.
    var secondReader: SecondReader? {
        guard let pool = writer as? DatabasePool else { return nil }
        return SecondReader(pool: pool, isFree: { [lanes] in lanes.nobodyWaits })
    }

    public func exportEveryHistory(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, of: nil, recordForm)
    }

    /// Records after `position` (a `seq`) in the order they were stored, as NDJSON lines, and the last one's; the
    /// trashed ones too (with `trashedAt`) when `includingTrash`; of `owner`'s history, or of every history, each
    /// with its `owner`, when nil.
    func exportChunk(
        after position: Int64, limit: Int, includingTrash: Bool, of owner: String?, _ recordForm: RecordForm
    ) async throws -> (lines: [UInt8], last: Int64?) {
        try await lanes.read(writer) { [self] db in
            let trash = includingTrash ? "" : " AND trashed_at IS NULL"
            // `owner >= 0` lets SQLite read the history in stored order from `share_by_owner` (migration 0012).
            let everyone = owner == nil
            let history = everyone ? "" : " AND owner = ? AND owner >= 0"
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(SQLiteRow.columns), seq, coalesce((SELECT name FROM share_user WHERE id = owner), ''),
                        (SELECT image FROM share_thumbnail WHERE share_seq = seq)
                    FROM share WHERE seq > ?\(history)\(trash) ORDER BY seq LIMIT ?
                    """)
            let arguments: StatementArguments =
                if let owner { [position, try ownerNumbers.number(of: owner, db), limit] } else { [position, limit] }
            var lines: [UInt8] = []
            var last: Int64?
            let seq = SQLiteRow.columnCount
            let form = recordForm.judgedNow()
            try StatementColumns.forEachRow(of: statement, arguments: arguments) { row in
                SQLiteRow.appendJSON(row, form, ownerColumn: everyone ? seq + 1 : nil, thumbnailColumn: seq + 2, to: &lines)
                lines.append(UInt8(ascii: "\n"))
                last = row.integer(seq)
                return true
            }
            return (lines, last)
        }
    }

    public func recordCounts() async throws -> (live: Int, trashed: Int) {
        try await writer.read { db in
            (try SQLiteRunningTotals.sums(owner: nil, trashed: false, db).count, try SQLiteRunningTotals.sums(owner: nil, trashed: true, db).count)
        }
    }

    public func users() async throws -> [UserUsage] {
        try await writer.read(SQLiteRunningTotals.owners)
    }

    /// Gives every record that belongs to nobody to `user`, with its events and running totals; returns how many.
    public func assignUnowned(to user: String) async throws -> Int {
        try await changing { db in
            let owner = try ownerNumbers.numbering(user, db)
            try db.execute(sql: "UPDATE share SET owner = ? WHERE owner = ? AND owner >= 0", arguments: [owner, OwnerNumber.nobody])
            return (db.changesCount, [owner, OwnerNumber.nobody])
        }
    }

    /// True when the database answers and every migration this binary knows has been applied.
    public func isReady() async -> Bool {
        let migrated = (try? await writer.read { db in try SQLiteMigrations.isUpToDate(db) }) ?? false
        guard migrated, let bucket else { return migrated }
        return await bucket.answers()
    }
}
