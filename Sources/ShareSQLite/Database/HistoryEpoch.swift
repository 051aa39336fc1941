import GRDB
import ShareHistory

/// The random word beside the history's version (`history_version.epoch`): made by the migration that adds it,
/// drawn anew by every restore.
enum HistoryEpoch {
    static func read(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT epoch FROM history_version") ?? ""
    }

    /// Draws a new epoch; a database from before epochs gets its first one when the daemon migrates it.
    static func renew(_ db: Database) throws {
        guard try db.columns(in: "history_version").contains(where: { $0.name == "epoch" }) else { return }
        try db.execute(sql: "UPDATE history_version SET epoch = lower(hex(randomblob(6)))")
    }
}
