import Logging
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// The advisory lock (one-key form) the nodes' automatic backups take turns under.
    static let backupLock: Int64 = 0x5348_4152_455F_4241

    /// Runs `backUp` (which writes a backup into `file` and says what it holds) and records it, when no node has
    /// backed the database up in the last `every` by the database's clock and none is backing it up now; nil otherwise.
    /// The lock is the session's, held on one connection for as long as the backup takes, and let go with it
    /// should this node die.
    public func backUpIfDue(
        every: Duration, node: String, file: String, _ backUp: @Sendable @escaping () async throws -> String
    ) async throws -> String? {
        let every = every.components.seconds * 1000
        return try await write { connection in
            try await connection.holdingAdvisoryLock(Self.backupLock, waiting: false, logger: logger) { () -> String? in
                let rows = try await connection.query(
                    """
                    SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint, (SELECT max(taken_at) FROM share_backup_run)
                    """, logger: logger)
                var due: Int64?
                for try await (now, last) in rows.decode((Int64, Int64?).self) where last.map({ now - $0 >= every }) ?? true { due = now }
                guard let now = due else { return nil }
                let summary = try await backUp()
                try await connection.query("INSERT INTO share_backup_run (taken_at, node, file) VALUES (\(now), \(node), \(file))", logger: logger)
                return summary
            } ?? nil
        }
    }
}
