import GRDB
import ShareHistory

/// The trigram index of names (`share_name_search`): which rows may hold a text. Rows it names are a superset of
/// the matches (it knows which trigrams a name holds, not where), so every row it names is still tested for the
/// whole text. Its entries lead with the owner (migration 0013), so that a search reads one history's names.
///
/// A search's words are looked up by their keys: the trigrams (runs of three Unicode scalars, as the index splits
/// names) of its words of three or more, or, when every word is shorter, the longest word itself, which the names
/// holding it begin a trigram with (each name is indexed followed by two U+0001, see migration 0008). Shorter
/// words beside longer ones are left to the test of each row.
enum NameIndex {
    /// The keys the index finds names holding every one of `words` by, sorted.
    static func keys(of words: [String]) -> [String] {
        let long = words.filter { $0.unicodeScalars.count >= 3 }
        guard !long.isEmpty else {
            return words.max { $0.unicodeScalars.count < $1.unicodeScalars.count }.map { [$0] } ?? []
        }
        return Set(long.flatMap(trigrams)).sorted()
    }

    /// The trigrams of a word of three or more scalars.
    private static func trigrams(of word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        return (0...(scalars.count - 3)).map { start in
            var trigram = ""
            trigram.unicodeScalars.append(contentsOf: scalars[start..<(start + 3)])
            return trigram
        }
    }

    /// Whether `key` is a whole trigram, which the index answers in one step SQLite cannot cut short, rather
    /// than the start of one, whose trigrams are read one row at a time.
    static func isTrigram(_ key: String) -> Bool {
        key.unicodeScalars.count == 3
    }

    /// A subquery selecting, as `value`, the `seq` of every row of `owner`'s history whose name holds every one of
    /// `keys` (all trigrams, or one shorter text), and for a shorter text values that are no row's too.
    static func rows(holdingEvery keys: [String], owner: Int64) -> SQL {
        let first = owner << 40
        let last = first + (1 << 40) - 1
        if keys.count == 1, let key = keys.first, !isTrigram(key) {
            // The vocabulary cannot seek to one history's names: it names every history's, as many as a LIMIT lets
            // it, so that a history of a few names never reads all the others' to find its own. Another history's
            // name comes out as a `seq` no row has (2^40 or more away from any), and matches nothing.
            return "SELECT DISTINCT doc - \(first) AS value FROM (\(documents(beginningWith: key)))"
        }
        let query = keys.sorted().map(phrase).joined(separator: " AND ")
        return """
            SELECT rowid - \(first) AS value FROM share_name_search
            WHERE share_name_search MATCH \(query) AND rowid >= \(first) AND rowid <= \(last)
            """
    }

    /// A subquery selecting, as `value`, every row of `owner`'s history whose name may hold every one of `words`.
    static func rows(holding words: [String], owner: Int64) -> SQL {
        rows(holdingEvery: keys(of: words), owner: owner)
    }

    /// The rows (`seq`) of `owner`'s history whose names may hold `words`, all of them, or nil when they were not all
    /// read: words of trigrams are looked up until more than `limit` rows are found, and a word of one or two
    /// characters (whose rows may be more than `limit`) is in more than `entries` names of every history, which the
    /// index reads in turn to find the history's own.
    static func rows(holding words: [String], owner: Int64, upTo limit: Int, readingAtMost entries: Int, _ db: Database) throws -> [Int64]? {
        let keys = keys(of: words)
        guard keys.count == 1, let key = keys.first, !isTrigram(key) else {
            let rows = try SQLRequest<Int64>(literal: "\(rows(holdingEvery: keys, owner: owner)) LIMIT \(limit + 1)", cached: true).fetchAll(db)
            return rows.count > limit ? nil : rows
        }
        let documents = try SQLRequest<Int64>(literal: "\(documents(beginningWith: key)) LIMIT \(entries + 1)", cached: true).fetchAll(db)
        guard documents.count <= entries else { return nil }
        let first = owner << 40
        // In the table's order: looked up one after the other, neighbours share pages.
        return Set(documents.lazy.filter { $0 >> 40 == owner }.map { $0 - first }).sorted()
    }

    /// The entries (`doc`, with repeats) of every trigram that begins with `key`, a text of one or two characters: the trigrams
    /// from `key` itself to `key` followed by the highest scalars.
    private static func documents(beginningWith key: String) -> SQL {
        let last = key + String(repeating: "\u{10FFFF}", count: 3 - key.unicodeScalars.count)
        return "SELECT doc FROM share_name_trigrams WHERE term >= \(key) AND term <= \(last)"
    }

    /// A trigram as an FTS5 string: quoted, so that no character of it is read as query syntax.
    private static func phrase(_ trigram: String) -> String {
        "\"" + trigram.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
