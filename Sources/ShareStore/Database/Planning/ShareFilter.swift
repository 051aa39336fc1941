import Foundation
import GRDB
import ShareKit

/// The WHERE clause of a query's filters, shared by listings and statistics.
struct ShareFilter: Sendable {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible & Sendable] = []

    init() {}

    /// One history's live records, or its trash: the owner that leads every index, and the condition of every
    /// partial index.
    init(live: Bool, owner: Int64) {
        add("owner = ?", owner)
        add(live ? "trashed_at IS NULL" : "trashed_at IS NOT NULL")
    }

    /// The query's filters, with `name` for its text (none: the caller tests it).
    init(_ query: ShareQuery, name: NameCondition?) {
        self.init(live: !query.trashed, owner: query.owner)
        add(query, name: name)
    }

    /// The query's filters but the ones every index answers: the owner, live or trashed.
    init(testing query: ShareQuery, name: NameCondition?) {
        add(query, name: name)
    }

    /// In the order a row is best tested in: the name and folder first, which most indexes hold, so that SQLite
    /// reads the table only for rows that pass them.
    private mutating func add(_ query: ShareQuery, name: NameCondition?) {
        add(name)
        if let folder = query.folder {
            if !query.recursive {
                add("folder = ?", folder)
            } else if folder != FolderPath.root {
                add("(folder = ? OR (folder >= ? AND folder < ?))", [folder] + Self.descendants(of: folder))
            }
        }
        if let types = query.types {
            let placeholders = Array(repeating: "?", count: types.count).joined(separator: ", ")
            add("type IN (\(placeholders))", types.map(\.rawValue).sorted())
        }
        addCreatedRange(query)
    }

    /// The `createdAt` window of `query`, if it has one.
    mutating func addCreatedRange(_ query: ShareQuery) {
        if let from = query.createdFrom { add("created_at >= ?", from.millisecondsSinceEpoch) }
        if let before = query.createdBefore { add("created_at < ?", before.millisecondsSinceEpoch) }
    }

    /// The bounds of the folders below `folder`: descendants of /a are the folders from "/a/" up to, not
    /// including, "/a0" ('0' follows '/').
    static func descendants(of folder: String) -> [String] {
        let prefix = FolderPath.descendantPrefix(of: folder)
        return [prefix, String(prefix.dropLast()) + "0"]
    }

    /// Adds the test of the name, if any.
    mutating func add(_ name: NameCondition?) {
        switch name {
        case .fullText(let text):
            let rows = NameIndex.rows(holding: text)
            add("seq IN (\(rows.sql))", rows.arguments)
            add(.contains(text))
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

    mutating func add(_ other: ShareFilter) {
        conditions += other.conditions
        arguments += other.arguments
    }

    /// This filter and one more condition.
    func adding(_ condition: String, _ values: [any DatabaseValueConvertible & Sendable]) -> ShareFilter {
        var filter = self
        filter.add(condition, values)
        return filter
    }

    func adding(_ condition: String, _ value: any DatabaseValueConvertible & Sendable) -> ShareFilter {
        adding(condition, [value])
    }

    var isEmpty: Bool { conditions.isEmpty }

    var whereClause: String { conditions.joined(separator: " AND ") }
}
