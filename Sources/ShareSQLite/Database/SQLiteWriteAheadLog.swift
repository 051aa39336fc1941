import Foundation
import GRDB
import GRDBSQLite
import ShareHistory

/// Keeps the write-ahead log of a database file from growing without end.
///
/// SQLite's own checkpoints, run after commits, copy the log back into the database but can start it over only
/// when no reader still uses it; with reads that never stop overlapping that moment never comes, and the log
/// grows by gigabytes ("checkpoint starvation"). So the log is checkpointed deliberately, from a connection of
/// its own: first without waiting on anyone (copying back what it can, while writes go on), then started over
/// and truncated, waiting at most a given time for the readers of older snapshots. A reader that
/// starts once the log is wholly copied back reads the database file, not the log, so those readers are only
/// the ones already running, and a new attempt soon succeeds. A busy log is left as it is, for the next try.
public final class SQLiteWriteAheadLog: Sendable {
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
            do {
                // Passive: waits for no one. Busy at once when SQLite's own checkpoint, run after a commit, is
                // copying back meanwhile: the truncating one then waits for it like for any reader.
                do { _ = try db.checkpoint(.passive) } catch let error as DatabaseError where Self.isBusy(error) {}
                var deadline = DispatchTime.now().uptimeNanoseconds + UInt64(wait / .nanoseconds(1))
                return try withUnsafeMutablePointer(to: &deadline) { deadline in
                    sqlite3_busy_handler(db.sqliteConnection, Self.pollUntilDeadline, deadline)
                    defer { sqlite3_busy_handler(db.sqliteConnection, nil, nil) }
                    _ = try db.checkpoint(.truncate)
                    return .restarted
                }
            } catch let error as DatabaseError where Self.isBusy(error) {
                return .busy
            }
        }
    }

    private static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    /// SQLite's busy handler while the log is started over: tries again every millisecond until the deadline
    /// (`DispatchTime` nanoseconds) that `context` points to. (SQLite's own timeout sleeps up to 100 ms between
    /// tries, holding writes that long after the last reader has gone.)
    private static let pollUntilDeadline: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, _ in
        guard let context, DispatchTime.now().uptimeNanoseconds < context.load(as: UInt64.self) else { return 0 }
        usleep(1000)
        return 1
    }
}
