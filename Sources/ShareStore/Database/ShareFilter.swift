import Foundation
import GRDB
import ShareKit

/// How a name search is answered.
enum NameSearch {
    /// Through the trigram index: fast for rare text, whatever the table's size.
    case trigramIndex
    /// By testing each row's name as rows are read in order: fast when the text is common.
    case rowByRow
    /// Leave the name out of the WHERE clause (the caller tests it).
    case omitted

    /// The trigram index needs three characters; shorter text is always tested row by row.
    static func preferred(for text: String) -> NameSearch {
        text.unicodeScalars.count >= 3 ? .trigramIndex : .rowByRow
    }
}

/// The WHERE clause of a query's filters, shared by listings and statistics.
struct ShareFilter {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible] = []

    init(_ query: ShareQuery, nameSearch: NameSearch? = nil) {
        add(query.trashed ? "trashed_at IS NOT NULL" : "trashed_at IS NULL")
        if let from = query.createdFrom { add("created_at >= ?", from.millisecondsSinceEpoch) }
        if let before = query.createdBefore { add("created_at < ?", before.millisecondsSinceEpoch) }
        if let text = query.nameContains, !text.isEmpty {
            switch nameSearch ?? .preferred(for: text) {
            case .trigramIndex:
                add("seq IN (SELECT rowid FROM share_name_search WHERE share_name_search MATCH ?)", Self.phrase(text))
            case .rowByRow:
                // A literal substring test: % and _ are plain characters.
                add("instr(name_key, ?) > 0", text)
            case .omitted:
                break
            }
        }
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

    mutating func add(_ condition: String, _ values: [any DatabaseValueConvertible] = []) {
        conditions.append(condition)
        arguments.append(contentsOf: values)
    }

    mutating func add(_ condition: String, _ value: any DatabaseValueConvertible) {
        add(condition, [value])
    }

    var whereClause: String { conditions.joined(separator: " AND ") }
}
