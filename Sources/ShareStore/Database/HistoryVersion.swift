import GRDB
import Synchronization

/// The history's version as this process last committed it, read without asking the database.
final class HistoryVersion: Sendable {
    private let current: Atomic<Int64>

    init(_ version: Int64) {
        current = Atomic(version)
    }

    var value: Int64 { current.load(ordering: .acquiring) }

    /// The version the database holds, as the transaction `db` is in sees it: every change to the history raises it
    /// in the change's own transaction, so two transactions that read the same one see the same history.
    static func stored(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT version FROM history_version") ?? 0
    }

    /// Takes a newly committed version; commits may report out of order, so the highest wins.
    func advance(to version: Int64) {
        current.max(version, ordering: .releasing)
    }
}
