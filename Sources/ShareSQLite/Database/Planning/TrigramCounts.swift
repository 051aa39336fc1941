import GRDB
import ShareHistory
import Synchronization

/// How many of a history's names hold each key of the trigram index (`NameIndex.keys`: a trigram, or text of one or
/// two characters, which every history's names are counted for), counted up to `cap` through the index and
/// remembered: the statistics that let a search start from the rarest keys of its text instead of reading every
/// key's list of names.
///
/// Counts are not updated as names change. A stale count only costs time, never a wrong answer: every
/// candidate a search takes from the index is checked against the whole text. A count found stale (more
/// candidates than it promised) is counted again next time, and an import forgets them all.
final class TrigramCounts: Sendable {
    /// Counting stops here: a key found in this many names is common, whatever its exact count.
    static let cap = 2000
    /// Distinct keys remembered; past this the memory is cleared and counting starts again.
    private static let capacity = 100_000

    /// A key of the index in one owner's history.
    private struct HistoryKey: Hashable {
        let owner: Int64
        let key: String
    }

    private let counts = Mutex<[HistoryKey: Int]>([:])

    init() {}

    /// The rows of `owner`'s history whose names hold every rare key of `words` (at most the three rarest): the only
    /// rows that can match. Nil when `words` have no key rarer than `limit`, or when those keys share more than
    /// `limit` names.
    func candidates(for words: [String], owner: Int64, limit: Int, _ db: Database) throws -> [Int64]? {
        var rare: [(key: String, count: Int)] = []
        for key in NameIndex.keys(of: words) {
            let count = try count(HistoryKey(owner: owner, key: key), db)
            if count < limit { rare.append((key, count)) }
        }
        guard !rare.isEmpty else { return nil }
        let rarest = rare.sorted { $0.count < $1.count }.prefix(3).map(\.key)
        let named: SQL = "\(NameIndex.rows(holdingEvery: rarest, owner: owner)) LIMIT \(limit + 1)"
        let rows = try SQLRequest<Int64>(literal: named, cached: true).fetchAll(db)
        guard rows.count <= limit else {
            // The counts were stale (names were added since): count these keys again next time.
            counts.withLock { counts in for key in rarest { counts[HistoryKey(owner: owner, key: key)] = nil } }
            return nil
        }
        return rows
    }

    /// Whether fewer than `cap` of `owner`'s names hold `key`.
    func isRare(_ key: String, owner: Int64, _ db: Database) throws -> Bool {
        try count(HistoryKey(owner: owner, key: key), db) < Self.cap
    }

    /// The count remembered for `key` in `owner`'s history, if any.
    func remembered(_ key: String, owner: Int64) -> Int? {
        counts.withLock { $0[HistoryKey(owner: owner, key: key)] }
    }

    /// Forgets every count, after a change to many names at once.
    func forgetAll() {
        counts.withLock { $0.removeAll() }
    }

    /// Names holding the key in its history, up to `cap`.
    private func count(_ key: HistoryKey, _ db: Database) throws -> Int {
        if let known = remembered(key.key, owner: key.owner) { return known }
        let first: SQL = "\(NameIndex.rows(holdingEvery: [key.key], owner: key.owner)) LIMIT \(Self.cap)"
        let count = try SQLRequest<Int>(literal: "SELECT count(*) FROM (\(first))").fetchOne(db) ?? 0
        counts.withLock { counts in
            if counts.count >= Self.capacity { counts.removeAll(keepingCapacity: true) }
            counts[key] = count
        }
        return count
    }
}
