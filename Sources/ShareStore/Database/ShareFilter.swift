import Foundation
import GRDB
import ShareKit

/// The WHERE clause of a query's filters, shared by listings and statistics.
struct ShareFilter: Sendable {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible & Sendable] = []

    /// The query's filters, with `name` for its text (none: the caller tests it).
    init(_ query: ShareQuery, name: NameCondition?) {
        add(query.trashed ? "trashed_at IS NOT NULL" : "trashed_at IS NULL")
        if let from = query.createdFrom { add("created_at >= ?", from.millisecondsSinceEpoch) }
        if let before = query.createdBefore { add("created_at < ?", before.millisecondsSinceEpoch) }
        add(name)
        if let types = query.types {
            let placeholders = Array(repeating: "?", count: types.count).joined(separator: ", ")
            add("type IN (\(placeholders))", types.map(\.rawValue).sorted())
        }
        if let folder = query.folder {
            if !query.recursive {
                add("folder = ?", folder)
            } else if folder != FolderPath.root {
                // Descendants of /a are the folders from "/a/" up to, not including, "/a0" ('0' follows '/').
                let prefix = FolderPath.descendantPrefix(of: folder)
                add("(folder = ? OR (folder >= ? AND folder < ?))", [folder, prefix, String(prefix.dropLast()) + "0"])
            }
        }
    }

    /// A quoted FTS5 phrase of trigrams, which matches exactly where the text is a substring.
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Adds the test of the name, if any.
    mutating func add(_ name: NameCondition?) {
        switch name {
        case .fullText(let text): add("seq IN (SELECT rowid FROM share_name_search WHERE share_name_search MATCH ?)", Self.phrase(text))
        case .contains(let text): add("instr(name_key, ?) > 0", text)
        case nil: break
        }
    }

    mutating func add(_ condition: String, _ values: [any DatabaseValueConvertible & Sendable] = []) {
        conditions.append(condition)
        arguments.append(contentsOf: values)
    }

    mutating func add(_ condition: String, _ value: any DatabaseValueConvertible & Sendable) {
        add(condition, [value])
    }

    var whereClause: String { conditions.joined(separator: " AND ") }
}
