import GRDB
import GRDBSQLite
import ShareHistory
import ShareKit

extension SQLiteStore {
    // MARK: - Reads

    /// A page of a record's history, oldest first, trashed or not; `.notFound` when no record has this id.
    public func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?) {
        try await writer.read { db in
            let page = try SQLiteEvents.page(id: id, owner: try ownerNumber(db), after: after, limit: limit, db)
            if page.isEmpty { _ = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: true, db) }
            let shown = page.prefix(limit)
            return (shown.map(\.event), page.count > limit ? shown.last?.seq : nil)
        }
    }

    /// One record by id, case-insensitively; a trashed one only with `includeTrashed`.
    public func share(id: String, includeTrashed: Bool) async throws -> ShareRecord {
        try await writer.read { db in
            try SQLiteRow.fetch(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, recordForm.judgedNow(), db)
        }
    }

    /// One page of records matching `query`, as the JSON array the API answers with, and the next page's cursor.
    public func listShares(_ query: ShareQuery) async throws -> SharePage {
        try await lanes.read(writer) { [self] db in
            try SQLiteListing(
                query: query, owner: try ownerNumber(db), form: recordForm.judgedNow(), trigramCounts: trigramCounts, secondReader: secondReader
            ).fetch(db)
        }
    }

    /// The database file and its write-ahead log, when the history is in a file.
    public func bytesOnDisk() -> [(part: String, bytes: Int64)] {
        guard writer is DatabasePool else { return [] }
        return [("database", DatabaseFile.size(path)), ("wal", DatabaseFile.size(path + "-wal"))]
    }

    /// The memory SQLite holds in this process, nearly all of it its connections' page caches.
    public func cacheBytes() -> Int64? { sqlite3_memory_used() }

    /// The reader a listing's long race may run its ordered reads on beside the others, while no other heavy read
    /// waits: a file's pool has several readers, a database in memory one connection.
    private var secondReader: SecondReader? {
        guard let pool = writer as? DatabasePool else { return nil }
        return SecondReader(pool: pool, isFree: { [lanes] in lanes.nobodyWaits })
    }

    public func exportChunk(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, everyone: false)
    }

    public func exportEveryHistory(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, everyone: true)
    }

    /// Records after `position` (a `seq`) in the order they were stored, as NDJSON lines, and the last one's; the
    /// trashed ones too (with `trashedAt`) when `includingTrash`; every history's, each with its `owner`, when
    /// `everyone`.
    private func exportChunk(
        after position: Int64, limit: Int, includingTrash: Bool, everyone: Bool
    ) async throws -> (lines: [UInt8], last: Int64?) {
        try await lanes.read(writer) { [self] db in
            let trash = includingTrash ? "" : " AND trashed_at IS NULL"
            // `owner >= 0` lets SQLite read the history in stored order from `share_by_owner` (migration 0012).
            let history = everyone ? "" : " AND owner = ? AND owner >= 0"
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(SQLiteRow.columns), seq, coalesce((SELECT name FROM share_user WHERE id = owner), ''),
                        (SELECT image FROM share_thumbnail WHERE share_seq = seq)
                    FROM share WHERE seq > ?\(history)\(trash) ORDER BY seq LIMIT ?
                    """)
            let arguments: StatementArguments =
                everyone ? [position, limit] : [position, try ownerNumber(db), limit]
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

    /// Counts and bytes of the records `query` matches, in total, per icon category and per period in its zone.
    public func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats {
        try await lanes.read(writer) { [self] db in
            try SQLiteStatistics(query: query, owner: try ownerNumber(db), trigramCounts: trigramCounts).fetch(by: period, db)
        }
    }

    public func usage() async throws -> ShareStats.Total {
        try await writer.read { db in
            try SQLiteRunningTotals.sums(owner: try ownerNumber(db), trashed: false, db).total
        }
    }

    public func filesBytes() async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT coalesce(sum(size), 0) FROM share INDEXED BY share_live_files WHERE owner = ? AND trashed_at IS NULL AND blob IS NOT NULL"
                ),
                arguments: [try ownerNumber(db)]) ?? 0
        }
    }

    public func quotaUsage() async throws -> QuotaUsage {
        try await writer.read { db in try Self.quotaUsage(owner: try ownerNumber(db), db) }
    }

    public func recordCounts() async throws -> (live: Int, trashed: Int) {
        try await writer.read { db in
            (try SQLiteRunningTotals.sums(owner: nil, trashed: false, db).count, try SQLiteRunningTotals.sums(owner: nil, trashed: true, db).count)
        }
    }

    public func folders(in parent: String) async throws -> [FolderUsage] {
        try await writer.read { db in try FolderTotals.subfolders(of: parent, owner: try ownerNumber(db), db) }
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
        (try? await writer.read { db in try SQLiteMigrations.isUpToDate(db) }) ?? false
    }
}
