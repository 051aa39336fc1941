import GRDB

/// The trigram index of names (`share_name_search`): which rows may hold a text. Rows it names are a superset of
/// the matches (it knows which trigrams a name holds, not where), so every row it names is still tested for the
/// whole text.
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

    /// A subquery selecting, as `value`, the `seq` of every row whose name holds every one of `keys` (all trigrams,
    /// or one shorter text).
    static func rows(holdingEvery keys: [String]) -> SQL {
        if keys.count == 1, let key = keys.first, !isTrigram(key) {
            // Trigrams beginning with `key` sort from `key` itself to `key` followed by the highest scalars.
            let last = key + String(repeating: "\u{10FFFF}", count: 3 - key.unicodeScalars.count)
            return "SELECT DISTINCT doc AS value FROM share_name_trigrams WHERE term >= \(key) AND term <= \(last)"
        }
        let query = keys.sorted().map(phrase).joined(separator: " AND ")
        return "SELECT rowid AS value FROM share_name_search WHERE share_name_search MATCH \(query)"
    }

    /// A subquery selecting, as `value`, every row whose name may hold `text`.
    static func rows(holding text: String) -> SQL {
        rows(holdingEvery: keys(of: text).sorted())
    }

    /// A trigram as an FTS5 string: quoted, so that no character of it is read as query syntax.
    private static func phrase(_ trigram: String) -> String {
        "\"" + trigram.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
