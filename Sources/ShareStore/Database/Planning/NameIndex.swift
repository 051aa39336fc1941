import GRDB

/// The trigram index of names (`share_name_search`): which rows may hold a text. Rows it names are a superset of
/// the matches (it knows which trigrams a name holds, not where), so every row it names is still tested for the
/// whole text. Its entries lead with the owner (migration 0013), so that a search reads one history's names.
///
/// A text is looked up by its keys: its trigrams (runs of three Unicode scalars, as the index splits names), or,
/// when it is shorter, the text itself, which the names holding it begin a trigram with (each name is indexed
/// followed by two U+0001, see migration 0008).
enum NameIndex {
    /// The keys the index finds `text` by.
    static func keys(of text: String) -> Set<String> {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3 else { return text.isEmpty ? [] : [text] }
        return Set(
            (0...(scalars.count - 3)).map { start in
                var trigram = ""
                trigram.unicodeScalars.append(contentsOf: scalars[start..<(start + 3)])
                return trigram
            })
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

    /// A subquery selecting, as `value`, every row of `owner`'s history whose name may hold `text`.
    static func rows(holding text: String, owner: Int64) -> SQL {
        rows(holdingEvery: keys(of: text).sorted(), owner: owner)
    }

    /// The rows (`seq`) of `owner`'s history whose names may hold `text`, all of them, or nil when they were not all
    /// read: a text of trigrams is looked up until more than `limit` rows are found, and a text of one or two
    /// characters (whose rows may be more than `limit`) is in more than `entries` names of every history, which the
    /// index reads in turn to find the history's own.
    static func rows(holding text: String, owner: Int64, upTo limit: Int, readingAtMost entries: Int, _ db: Database) throws -> [Int64]? {
        let keys = keys(of: text).sorted()
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
