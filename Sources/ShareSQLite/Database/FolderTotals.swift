import GRDB
import ShareHistory
import ShareKit

/// The running totals per folder (`share_folder_total`, migration 0015): each history's live records in each
/// folder itself, kept by triggers. A folder's subfolders add up the rows of the folders below them.
enum FolderTotals {
    /// The subfolders of `parent` in `owner`'s history that hold live records (in them or below them), by name,
    /// each with the count and bytes of everything below it. Reads one row per folder below `parent`.
    static func subfolders(of parent: String, owner: Int64, _ db: Database) throws -> [FolderUsage] {
        let prefix = FolderPath.descendantPrefix(of: parent)
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT folder, count, bytes_high, bytes_low FROM share_folder_total
                WHERE owner = ? AND folder > ? AND folder < ? ORDER BY folder
                """,
            arguments: [owner, prefix, FolderPath.descendantsEnd(of: parent)])
        var totals: [(folder: String, total: ShareStats.Total)] = []
        while let row = try rows.next() { totals.append((row["folder"], Sums(row).total)) }
        return FolderUsage.subfolders(of: parent, adding: totals)
    }

    /// How many live records `owner`'s history holds in `folder` and below it.
    static func records(inTreeOf folder: String, owner: Int64, _ db: Database) throws -> Int {
        let records: SQL = "SELECT coalesce(sum(count), 0) FROM share_folder_total WHERE owner = \(owner) AND \(SQLiteFilter.tree(of: folder))"
        return try SQLRequest<Int>(literal: records).fetchOne(db) ?? 0
    }

    /// Adds the live records stored after `seq` to the totals, a folder at a time: what an import does once its
    /// records are in, with the per-record trigger put aside.
    static func add(recordsAfter seq: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO share_folder_total_change
                SELECT owner, folder, count(*), sum(size >> 32), sum(size & 4294967295) FROM share
                WHERE seq > ? AND trashed_at IS NULL GROUP BY owner, folder
                """,
            arguments: [seq])
    }
}
