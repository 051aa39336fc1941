import GRDB
import ShareHistory
import ShareKit
import Synchronization

/// The running totals of an import's staged records, per trash state, UTC day and type, summed as they are staged
/// and written into the totals (through `share_total_change`, as the triggers do) when the import joins the
/// history: a row per day rather than a trigger call per record.
final class StagedTotals: Sendable {
    private struct Key: Hashable {
        let trashed: Bool
        let day: Int64
        let type: String
    }

    private let sums = Mutex<[Key: Sums]>([:])

    func add(trashed: Bool, createdAt: Int64, type: String, size: Int64) {
        sums.withLock { $0[Self.key(trashed, createdAt, type), default: Sums()].add(Sums(size: size)) }
    }

    /// Takes back a record that will not join the history after all (its id was taken meanwhile).
    func remove(trashed: Bool, createdAt: Int64, type: String, size: Int64) {
        sums.withLock { $0[Self.key(trashed, createdAt, type), default: Sums()].subtract(Sums(size: size)) }
    }

    /// How many records are staged, live or trashed.
    var count: Int {
        sums.withLock { sums in sums.values.reduce(0) { $0 + $1.count } }
    }

    /// The count and bytes of the live records staged.
    var live: Sums {
        sums.withLock { sums in sums.filter { !$0.key.trashed }.values.reduce(into: Sums()) { $0.add($1) } }
    }

    /// Adds the sums to `owner`'s running totals, each day's given as created at the day's first instant.
    func write(owner: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO share_total_change VALUES (?, ?, ?, ?, ?, ?, ?)")
        for (key, sums) in sums.withLock({ $0 }) where sums.count != 0 {
            try statement.execute(arguments: [owner, key.trashed, key.day * Timestamp.millisecondsPerDay, key.type, sums.count, sums.high, sums.low])
        }
    }

    private static func key(_ trashed: Bool, _ createdAt: Int64, _ type: String) -> Key {
        Key(trashed: trashed, day: Timestamp(millisecondsSinceEpoch: createdAt).utcDay.daysSinceEpoch, type: type)
    }
}
