import Foundation
import GRDB
import ShareHistory
import ShareKit

/// The running totals (`share_total` per day, `share_total_month` per month, migration 0011; `share_folder_total`
/// per folder, 0015; `share_total_quarter` per quarter hour, 0020) against the records they sum (the views `share_total_of_records`, `share_total_month_of_records`): compared by `shared check` and
/// every backup's checks, rebuilt by a repair.
public enum SQLiteRunningTotals {
    /// Each table of totals, the view that sums the records the same way, and the columns that name a row.
    private static let tables = [
        (table: "share_total", records: "share_total_of_records", key: "owner, trashed, day, type"),
        (table: "share_total_month", records: "share_total_month_of_records", key: "owner, trashed, month, type"),
        (table: "share_total_quarter", records: "share_total_quarter_of_records", key: "owner, trashed, quarter, type"),
        (table: "share_folder_total", records: "share_folder_total_of_records", key: "owner, folder"),
    ]

    /// How many rows of the totals differ from what the records give, counting those missing on either side; a
    /// database from before a table of totals (a backup's) has none of it to check.
    static func differences(_ db: Database) throws -> Int {
        try tables.reduce(0) { differing, totals in
            guard try db.tableExists(totals.table) else { return differing }
            let columns = "\(totals.key), count, bytes_high, bytes_low"
            let kept = "SELECT \(columns) FROM \(totals.table)"
            let summed = "SELECT \(columns) FROM \(totals.records)"
            let either = "SELECT * FROM (\(kept) EXCEPT \(summed)) UNION ALL SELECT * FROM (\(summed) EXCEPT \(kept))"
            return differing + (try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT \(totals.key) FROM (\(either)))") ?? 0)
        }
    }

    /// The count and bytes of one history's live records, or of its trash, from the months' rows; nil `owner`:
    /// of every history.
    static func sums(owner: Int64?, trashed: Bool, _ db: Database) throws -> Sums {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT sum(count), sum(bytes_high), sum(bytes_low) FROM share_total_month
                WHERE \(owner == nil ? "true" : "owner = ?") AND trashed = ?
                """,
            arguments: owner.map { [$0, trashed] } ?? [trashed])
        return Sums(count: row?[0] ?? 0, high: row?[1] ?? 0, low: row?[2] ?? 0)
    }

    /// Every user holding live records, by name, with their count and bytes; records that belong to nobody are
    /// left out.
    static func owners(_ db: Database) throws -> [UserUsage] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT name, sum(count) AS count, sum(bytes_high) AS bytes_high, sum(bytes_low) AS bytes_low
                FROM share_total_month JOIN share_user ON id = owner
                WHERE trashed = 0 GROUP BY name ORDER BY name
                """
        ).map { row in
            let total = Sums(row).total
            return UserUsage(user: row["name"], count: total.count, bytes: total.bytes)
        }
    }

    /// Throws `StoreError.totalsDiffer` unless the totals match the records.
    static func verify(_ db: Database, path: String) throws {
        let differing = try differences(db)
        guard differing == 0 else { throw StoreError.totalsDiffer(path: path, rows: differing) }
    }

    /// Rebuilds the totals of the database at `path` from its records, in one transaction (a daemon serving it
    /// waits for it); returns how many rows differed before. A database from before the totals is migrated first.
    public static func repair(databaseAt path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteFileError.cannotOpen(path: path, reason: "no such file") }
        try SQLiteStore.refuseForeignFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try SQLiteMigrations.migrate(queue, path: path)
        return try queue.write { db in
            let differing = try differences(db)
            for totals in tables {
                let columns = "\(totals.key), count, bytes_high, bytes_low"
                try db.execute(sql: "DELETE FROM \(totals.table); INSERT INTO \(totals.table) (\(columns)) SELECT \(columns) FROM \(totals.records)")
            }
            return differing
        }
    }
}

extension Sums {
    /// The sums of a row of a totals table: its `count`, `bytes_high` and `bytes_low`.
    init(_ row: Row) {
        self.init(count: row["count"], high: row["bytes_high"], low: row["bytes_low"])
    }
}
