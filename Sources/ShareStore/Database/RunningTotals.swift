import Foundation
import GRDB

/// The running totals (`share_total`, migration 0011) against the records they sum (the view
/// `share_total_of_records`): compared by `shared check` and every backup's checks, rebuilt by a repair.
public enum RunningTotals {
    private static let columns = "owner, trashed, type, day, count, bytes_high, bytes_low"

    /// How many rows of the totals differ from what the records give, counting those missing on either side.
    static func differences(_ db: Database) throws -> Int {
        let kept = "SELECT \(columns) FROM share_total"
        let summed = "SELECT \(columns) FROM share_total_of_records"
        let differing = "SELECT * FROM (\(kept) EXCEPT \(summed)) UNION ALL SELECT * FROM (\(summed) EXCEPT \(kept))"
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT owner, trashed, type, day FROM (\(differing)))") ?? 0
    }

    /// Throws `StoreError.totalsDiffer` unless the totals match the records; databases from before the totals
    /// have none to check.
    static func verify(_ db: Database, path: String) throws {
        guard try db.tableExists("share_total") else { return }
        let differing = try differences(db)
        guard differing == 0 else { throw StoreError.totalsDiffer(path: path, rows: differing) }
    }

    /// Rebuilds the totals of the database at `path` from its records, in one transaction (a daemon serving it
    /// waits for it); returns how many rows differed before. A database from before the totals is migrated first.
    public static func repair(databaseAt path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.cannotOpen(path: path, reason: "no such file") }
        try ShareDatabase.refuseForeignFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try SchemaMigrator.migrate(queue, path: path)
        return try queue.write { db in
            let differing = try differences(db)
            try db.execute(sql: "DELETE FROM share_total; INSERT INTO share_total (\(columns)) SELECT \(columns) FROM share_total_of_records")
            return differing
        }
    }
}
