import Foundation
import GRDB
import ShareHistory
import ShareKit
import Synchronization

/// An import in progress. Its records wait in a temporary table of the writer's connection, seen by no one
/// else, and join the history together, in one transaction, when the stream ends.
///
/// When the import is at least as large as the history (a first load, a move between servers), joining
/// rebuilds the history's indexes instead of updating them: sorting each index's keys once is many times
/// cheaper than inserting a million keys one by one into a dozen indexes larger than the page cache.
///
/// The running totals of the staged records are summed as they are staged (`StagedTotals`) and join the totals a
/// day at a time, the quarter hours' in one statement over the stored records: one trigger call per record costs a
/// tenth of a large import.
public struct SQLiteImportStaging: Sendable {
    private static let imports = Atomic<Int>(0)
    let table: String
    /// Stages a record unless its id is in the history already: one statement, made once.
    private let insertSQL: String
    private let totals = StagedTotals()

    init() {
        table = "temp.\"import_\(Self.imports.add(1, ordering: .relaxed).newValue)\""
        insertSQL = """
            INSERT INTO \(table) (line, \(SQLiteRow.newColumns), thumbnail_tag, thumbnail)
            SELECT ?, \(SQLiteRow.newPlaceholders), ?, ? WHERE NOT EXISTS (SELECT 1 FROM main.share WHERE id = ?)
            """
    }

    func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE \(table) (
                    line INTEGER NOT NULL, id TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT NOT NULL,
                    name_key TEXT NOT NULL, folder TEXT NOT NULL, created_at INTEGER NOT NULL, size INTEGER NOT NULL,
                    type TEXT NOT NULL, trashed_at INTEGER, link_token TEXT, source TEXT, expires_at INTEGER, max_downloads INTEGER,
                    downloads INTEGER NOT NULL, revoked_at INTEGER, code TEXT, sender TEXT, message TEXT, thumbnail_tag TEXT, thumbnail BLOB)
                """)
    }

    /// A record on its way into the table, with its row's values: made before the writer's turn, beside the reading
    /// of the next batch, so that the writer only stores it.
    struct StagedRow: Sendable {
        let record: ShareRecord
        fileprivate let arguments: StatementArguments
    }

    func row(_ record: ShareRecord, thumbnail: Thumbnail?, line: Int) -> StagedRow {
        var arguments: StatementArguments = [line]
        arguments += SQLiteRow.newValues(record)
        arguments += [thumbnail?.tag, thumbnail.map { Data($0.image) }, record.id]
        return StagedRow(record: record, arguments: arguments)
    }

    /// Stages one record. An id already in the history fails like one already in this import: as SQLite's
    /// UNIQUE constraint does, so that the caller draws another for a generated id.
    func insert(_ row: StagedRow, _ db: Database) throws {
        try db.cachedStatement(sql: insertSQL).execute(arguments: row.arguments)
        if db.changesCount == 0 {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "the id is taken in the history")
        }
    }

    /// Counts records in the import's totals, once the transaction that staged them has committed.
    func count(_ staged: [ShareRecord]) {
        for record in staged {
            totals.add(
                trashed: record.trashedAt != nil, createdAt: record.createdAt.millisecondsSinceEpoch, type: record.type.rawValue, size: record.size)
        }
    }

    /// Moves the staged records into `owner`'s history in the order they came, and drops the table, once `admit`
    /// has accepted their live records' sums (it throws to refuse them all). Reports the records whose id another
    /// request took since they were staged.
    func merge(
        by: String, owner: Int64, at time: Timestamp, admitting admit: (Sums) throws -> Void, _ db: Database
    ) throws -> FinishedImport {
        let taken = try Row.fetchAll(
            db,
            sql:
                "SELECT line, id, trashed_at IS NOT NULL AS trashed, created_at, type, size FROM \(table) WHERE id IN (SELECT id FROM main.share) ORDER BY rowid"
        )
        for row in taken { totals.remove(trashed: row["trashed"], createdAt: row["created_at"], type: row["type"], size: row["size"]) }
        try db.execute(sql: "DELETE FROM \(table) WHERE id IN (SELECT id FROM main.share)")
        try admit(totals.live)
        let staged = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM main.share") ?? 0
        let rebuilt = staged > 0 && staged >= existing ? try Self.secondaryIndexes(db) : []
        for index in rebuilt { try db.execute(sql: "DROP INDEX main.\"\(index.name)\"") }
        let before = try SQLiteRow.lastSeq(db)
        // The records join the totals below, summed: the triggers that would add them one by one are put aside meanwhile.
        let perRecord = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'trigger'
                AND name IN ('share_total_insert', 'share_folder_total_insert', 'share_total_quarter_insert')
                """)
        for trigger in perRecord { try db.execute(sql: "DROP TRIGGER main.\(trigger["name"] as String)") }
        try db.execute(
            sql: """
                INSERT INTO main.share (owner, \(SQLiteRow.newColumns), thumbnail)
                SELECT ?, \(SQLiteRow.newColumns), thumbnail IS NOT NULL FROM \(table) ORDER BY rowid
                """,
            arguments: [owner])
        let stored = db.changesCount
        guard stored == totals.count else { throw FinishedImport.stagingLost(staged: totals.count, stored: stored) }
        for trigger in perRecord { try db.execute(sql: trigger["sql"]) }
        try totals.write(owner: owner, db)
        try FolderTotals.add(recordsAfter: before, db)
        try QuarterHourTotals.add(recordsAfter: before, db)
        for index in rebuilt { try db.execute(sql: index.sql) }
        try SQLiteRow.indexNames(after: before, db)
        try db.execute(
            sql: """
                INSERT INTO share_thumbnail (share_seq, tag, image)
                SELECT share.seq, staged.thumbnail_tag, staged.thumbnail FROM \(table) AS staged JOIN main.share ON share.id = staged.id
                WHERE staged.thumbnail IS NOT NULL AND share.seq > ?
                """, arguments: [before])
        try db.execute(
            sql: """
                INSERT INTO share_event (share_seq, at, action, by) SELECT seq, ?, 'imported', ? FROM share WHERE seq > ? ORDER BY seq;
                INSERT INTO share_event (share_seq, at, action, by)
                    SELECT seq, trashed_at, 'trashed', ? FROM share WHERE seq > ? AND trashed_at IS NOT NULL ORDER BY seq;
                """, arguments: [time.millisecondsSinceEpoch, by, before, by, before])
        try drop(db)
        return FinishedImport(stored: stored, problems: taken.map { ImportReport.Problem.idTaken(line: $0["line"], id: $0["id"]) })
    }

    func drop(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
    }

    /// The indexes of `share` as the migrations made them; the one behind `id`'s UNIQUE has no SQL of its own.
    private static func secondaryIndexes(_ db: Database) throws -> [(name: String, sql: String)] {
        try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'share' AND sql IS NOT NULL"
        ).map { ($0["name"], $0["sql"]) }
    }
}
