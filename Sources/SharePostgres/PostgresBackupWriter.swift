import Foundation
import ShareHistory

/// PostgreSQL's automatic backups: a `pg_dump` by whichever node finds, under the backups' advisory lock, that no
/// node has taken one in the last `every` (the database keeps the record, `share_backup_run`).
struct PostgresBackupWriter: BackupWriter {
    let store: PostgresStore
    let dump: PostgresDump
    /// How this node is named in `share_backup_run`: its host and process.
    let node = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)"

    var fileExtension: String { "dump" }

    func backUp(to file: String, every: Duration, newestHere: Date?) async throws -> String? {
        try await store.backUpIfDue(every: every, node: node, file: file) { try await dump.write(to: file) }
    }
}
