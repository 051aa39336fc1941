import ShareHistory
import ShareKit

/// The WHERE clause of a query's filters, shared by listings, statistics and batches, as `SQLiteFilter` is in
/// SQLite: written into the statement being built, each value bound where it is written.
enum PostgresFilter {
    /// Appends the conditions of `query` in `owner`'s history (live or trashed, text, folder, types, dates), joined by AND.
    static func append(_ query: ShareQuery, owner: Int64, to sql: inout BoundSQL) throws {
        sql.append("owner = ")
        sql.bind(owner)
        sql.append(query.trashed ? " AND trashed_at IS NOT NULL" : " AND trashed_at IS NULL")
        // Each word a literal substring of the folded name: LIKE's wildcards and its escape character are escaped.
        // The trigram index answers them; words too short for a trigram name their characters' index entries too.
        let short = query.nameWords.filter { $0.unicodeScalars.count < 3 }
        if !short.isEmpty {
            sql.append(" AND share_short_grams(name_key) @> ")
            try sql.bind(array: short)
        }
        for word in query.nameWords {
            sql.append(" AND name_key LIKE ")
            sql.bind("%" + likeEscaped(word) + "%")
        }
        if let folder = query.folder {
            if !query.recursive {
                sql.append(" AND folder = ")
                sql.bind(folder)
            } else if folder != FolderPath.root {
                sql.append(" AND (folder = ")
                sql.bind(folder)
                // The folders below it.
                sql.append(" OR (folder >= ")
                sql.bind(FolderPath.descendantPrefix(of: folder))
                sql.append(" AND folder < ")
                sql.bind(FolderPath.descendantsEnd(of: folder))
                sql.append("))")
            }
        }
        if let types = query.types {
            // One type as an equality, which its index (type, then time) reads in the listing's order.
            if types.count == 1, let type = types.first {
                sql.append(" AND type = ")
                sql.bind(type.rawValue)
            } else {
                sql.append(" AND type = ANY(")
                try sql.bind(array: types.map(\.rawValue).sorted())
                sql.append(")")
            }
        }
        if let states = query.states { appendStates(states, at: query.statesJudgedAt ?? .now(), to: &sql) }
        if let from = query.createdFrom {
            sql.append(" AND created_at >= ")
            sql.bind(from.millisecondsSinceEpoch)
        }
        if let before = query.createdBefore {
            sql.append(" AND created_at < ")
            sql.bind(before.millisecondsSinceEpoch)
        }
    }

    /// The shares that open whose link is in one of `states` at `now`, each part written as an index reads it
    /// (`share_live_by_state`, `share_live_spent`).
    private static func appendStates(_ states: Set<ShareState>, at now: Timestamp, to sql: inout BoundSQL) {
        let spent = "revoked_at IS NULL AND max_downloads IS NOT NULL AND downloads >= max_downloads"
        var parts: [(String, Int64?)] = []
        if states.contains(.revoked) { parts.append(("revoked_at IS NOT NULL", nil)) }
        if states.contains(.expired) { parts += [(spent, nil), ("revoked_at IS NULL AND expires_at <= ", now.millisecondsSinceEpoch)] }
        if states.contains(.active) {
            let open = "revoked_at IS NULL AND (max_downloads IS NULL OR downloads < max_downloads) AND "
            parts += [(open + "expires_at IS NULL", nil), (open + "expires_at > ", now.millisecondsSinceEpoch)]
        }
        sql.append(" AND link_token IS NOT NULL AND (")
        for (index, (condition, time)) in parts.enumerated() {
            sql.append((index > 0 ? " OR (" : "(") + condition)
            if let time { sql.bind(time) }
            sql.append(")")
        }
        sql.append(")")
    }

    /// `text` with `\`, `%` and `_` escaped for LIKE, whose default escape character is `\`.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
