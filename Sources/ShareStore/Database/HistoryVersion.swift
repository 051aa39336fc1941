import Synchronization

/// The history's version as this process last committed it, read without asking the database.
final class HistoryVersion: Sendable {
    private let current: Atomic<Int64>

    init(_ version: Int64) {
        current = Atomic(version)
    }

    var value: Int64 { current.load(ordering: .acquiring) }

    /// Takes a newly committed version; commits may report out of order, so the highest wins.
    func advance(to version: Int64) {
        current.max(version, ordering: .releasing)
    }
}
