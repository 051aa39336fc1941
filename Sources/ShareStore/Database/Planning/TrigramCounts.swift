import GRDB
import Synchronization

/// How many names contain each trigram (three Unicode scalars, as the search index splits names), counted up to
/// `cap` through the trigram index and remembered: the statistics that let a search start from the rarest
/// trigrams of its text instead of reading every trigram's list of names.
///
/// Counts are not updated as names change. A stale count only costs time, never a wrong answer: every
/// candidate a search takes from the index is checked against the whole text. A count found stale (more
/// candidates than it promised) is counted again next time, and an import forgets them all.
final class TrigramCounts: Sendable {
    /// Counting stops here: a trigram found in this many names is common, whatever its exact count.
    static let cap = 2000
    /// Distinct trigrams remembered; past this the memory is cleared and counting starts again.
    private static let capacity = 100_000

    private let counts = Mutex<[String: Int]>([:])

    init() {}

    /// The rows whose names contain every rare trigram of `text` (at most the three rarest): the only rows that
    /// can match. Nil when `text` has no trigram rarer than `limit`, or when those trigrams share more than
    /// `limit` names.
    func candidates(for text: String, limit: Int, _ db: Database) throws -> [Int64]? {
        var rare: [(trigram: String, count: Int)] = []
        for trigram in Self.trigrams(of: text) {
            let count = try count(trigram, db)
            if count < limit { rare.append((trigram, count)) }
        }
        guard !rare.isEmpty else { return nil }
        let rarest = rare.sorted { $0.count < $1.count }.prefix(3).map(\.trigram)
        let query = rarest.map(ShareFilter.phrase).joined(separator: " AND ")
        let rows = try Int64.fetchAll(
            db, sql: "SELECT rowid FROM share_name_search WHERE share_name_search MATCH ? LIMIT ?", arguments: [query, limit + 1])
        guard rows.count <= limit else {
            // The counts were stale (names were added since): count these trigrams again next time.
            counts.withLock { counts in for trigram in rarest { counts[trigram] = nil } }
            return nil
        }
        return rows
    }

    /// The count remembered for `trigram`, if any.
    func remembered(_ trigram: String) -> Int? {
        counts.withLock { $0[trigram] }
    }

    /// Forgets every count, after a change to many names at once.
    func forgetAll() {
        counts.withLock { $0.removeAll() }
    }

    /// Names containing `trigram`, up to `cap`.
    private func count(_ trigram: String, _ db: Database) throws -> Int {
        if let known = remembered(trigram) { return known }
        let count =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM (SELECT 1 FROM share_name_search WHERE share_name_search MATCH ? LIMIT ?)",
                arguments: [ShareFilter.phrase(trigram), Self.cap]) ?? 0
        counts.withLock { counts in
            if counts.count >= Self.capacity { counts.removeAll(keepingCapacity: true) }
            counts[trigram] = count
        }
        return count
    }

    /// Every distinct run of three Unicode scalars in `text`.
    static func trigrams(of text: String) -> Set<String> {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        return Set(
            (0...(scalars.count - 3)).map { start in
                var trigram = ""
                trigram.unicodeScalars.append(contentsOf: scalars[start..<(start + 3)])
                return trigram
            })
    }
}
