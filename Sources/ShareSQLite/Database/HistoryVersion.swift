import GRDB
import ShareHistory
import Synchronization

/// The history's version (`history_version`, raised by every change in its own transaction), and how many changes
/// this process has committed to each owner's history, which their ETags are made of, read without asking the
/// database, so that one user's writes never change another's tags.
final class HistoryVersion: Sendable {
    private let changes = Mutex<[Int64: Int64]>([:])
    /// Drawn at each start, as the owners' counts start again: a tag from before never matches.
    let start = String(UInt64.random(in: 0...UInt64.max), radix: 36)

    init() {}

    /// The changes committed to `owner`'s history since this process started.
    func changes(of owner: Int64) -> Int64 {
        changes.withLock { $0[owner] ?? 0 }
    }

    /// The version the database holds, as the transaction `db` is in sees it: every change to the history raises it
    /// in the change's own transaction, so two transactions that read the same one see the same history.
    static func stored(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT version FROM history_version") ?? 0
    }

    /// Counts a committed change to the histories of `owners`.
    func count(_ owners: Set<Int64>) {
        changes.withLock { changes in for owner in owners { changes[owner, default: 0] += 1 } }
    }

    /// Raises the stored version, in the transaction of a change that changed rows.
    static func raise(_ db: Database) throws {
        try db.execute(sql: "UPDATE history_version SET version = version + 1")
    }
}
