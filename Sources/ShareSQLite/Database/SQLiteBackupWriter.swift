import Foundation
import ShareHistory

/// SQLite's automatic backups: a checked copy of the database file (`SQLiteBackups.backUp`), due when the folder's
/// newest is `every` old.
struct SQLiteBackupWriter: BackupWriter {
    let database: String

    var fileExtension: String { "db" }

    func backUp(to file: String, every: Duration, newestHere: Date?) async throws -> String? {
        if let newestHere, Date().timeIntervalSince(newestHere) < Double(every.components.seconds) { return nil }
        return try SQLiteBackups.backUp(databaseAt: database, to: file).description
    }
}
