import Foundation
import GRDB
import GRDBSQLite

/// Keeps the write-ahead log of a database file from growing without end.
///
/// SQLite's own checkpoints, run after commits, copy the log back into the database but can start it over only
/// when no reader still uses it; with reads that never stop overlapping that moment never comes, and the log
/// grows by gigabytes ("checkpoint starvation"). So the log is checkpointed deliberately, from a connection of
/// its own: first without waiting on anyone (copying back what it can, while writes go on), then started over
/// and truncated, waiting at most a given time for the readers of older snapshots. A reader that
/// starts once the log is wholly copied back reads the database file, not the log, so those readers are only
/// the ones already running, and a new attempt soon succeeds. A busy log is left as it is, for the next try.
public final class WriteAheadLog: Sendable {
    /// What one checkpoint did.
    public enum Outcome: String, Sendable {
        /// The log was copied back, started over and truncated to nothing.
        case restarted
        /// A reader of an older snapshot (or a writer) held it past the wait: it stays, copied back as far as it
        /// could be, for the next try.
        case busy
    }

    public let databasePath: String
    private let connection: DatabaseQueue

    /// Opens a connection of its own to the database file at `path` (in WAL mode, served by a pool).
    public init(databasePath path: String) throws {
        databasePath = path
        connection = try DatabaseQueue(path: path)
    }

    /// The log's size on disk now.
    public var bytes: Int64 { DatabaseFile.size(databasePath + "-wal") }

    /// Copies the log back into the database and starts it over, waiting at most `wait` for other connections.
    /// Writes are held for that long at most, plus the time to copy back what came in meanwhile; reads never.
    public func checkpoint(waitingAtMost wait: Duration) async throws -> Outcome {
        try await connection.writeWithoutTransaction { db in
            let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
            do {
                // Passive: waits for no one (another checkpoint running makes it busy at once).
                _ = try db.checkpoint(.passive)
                sqlite3_busy_timeout(db.sqliteConnection, Int32(milliseconds))
                defer { sqlite3_busy_timeout(db.sqliteConnection, 0) }
                _ = try db.checkpoint(.truncate)
                return .restarted
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                return .busy
            }
        }
    }
}
