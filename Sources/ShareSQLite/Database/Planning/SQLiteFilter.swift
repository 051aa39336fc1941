import GRDB
import ShareHistory
import ShareKit

/// The WHERE clause of a query's filters, shared by listings and statistics. Each condition is an SQL literal
/// holding its own values, so that no condition and its arguments can drift apart.
struct SQLiteFilter: Sendable {
    private(set) var conditions: [SQL] = []

    init() {}

    /// One history's live records, or its trash: the owner that leads every index, and the condition of every
    /// partial index.
    init(live: Bool, owner: Int64) {
        add("owner = \(owner)")
        add(live ? "trashed_at IS NULL" : "trashed_at IS NOT NULL")
    }

    /// The query's filters, with `name` for its text (none: the caller tests it).
    init(_ query: ShareQuery, owner: Int64, name: NameCondition?) {
        self.init(live: !query.trashed, owner: owner)
        add(query, owner: owner, name: name)
    }

    /// The query's filters but the ones every index answers: the owner, live or trashed.
    init(testing query: ShareQuery, owner: Int64, name: NameCondition?) {
        add(query, owner: owner, name: name)
    }

    /// In the order a row is best tested in: the name and folder first, which most indexes hold, so that SQLite
    /// reads the table only for rows that pass them.
    private mutating func add(_ query: ShareQuery, owner: Int64, name: NameCondition?) {
        add(name, owner: owner)
        if let folder = query.folder {
            if !query.recursive {
                add("folder = \(folder)")
            } else if folder != FolderPath.root {
                add(Self.tree(of: folder))
            }
        }
        if let types = query.types {
            add("type IN \(types.map(\.rawValue).sorted())")
        }
        if let states = query.states {
            add(StateSeeks.test(states, at: (query.statesJudgedAt ?? .now()).millisecondsSinceEpoch))
        }
        addCreatedRange(query)
    }

    /// The `createdAt` window of `query`, if it has one.
    mutating func addCreatedRange(_ query: ShareQuery) {
        if let from = query.createdFrom { add("created_at >= \(from.millisecondsSinceEpoch)") }
        if let before = query.createdBefore { add("created_at < \(before.millisecondsSinceEpoch)") }
    }

    /// `folder` and every folder below it.
    static func tree(of folder: String) -> SQL {
        "(folder = \(folder) OR \(descendants(of: folder)))"
    }

    /// The folders below `folder`: descendants of /a are the folders from "/a/" up to, not including, "/a0" ('0'
    /// follows '/').
    static func descendants(of folder: String) -> SQL {
        let prefix = FolderPath.descendantPrefix(of: folder)
        return "(folder >= \(prefix) AND folder < \(FolderPath.descendantsEnd(of: folder)))"
    }

    /// Adds the test of the name, if any, in `owner`'s history.
    private mutating func add(_ name: NameCondition?, owner: Int64) {
        switch name {
        case .fullText(let words):
            add("seq IN (\(NameIndex.rows(holding: words, owner: owner)))")
            add(.contains(words), owner: owner)
        case .contains(let words):
            for word in words { add("instr(name_key, \(word)) > 0") }
        case nil: break
        }
    }

    mutating func add(_ condition: SQL) {
        conditions.append(condition)
    }

    mutating func add(_ other: SQLiteFilter) {
        conditions += other.conditions
    }

    /// This filter and one more condition.
    func adding(_ condition: SQL) -> SQLiteFilter {
        var filter = self
        filter.add(condition)
        return filter
    }

    var isEmpty: Bool { conditions.isEmpty }

    /// The conditions, joined by AND.
    var sql: SQL { conditions.joined(separator: " AND ") }
}
