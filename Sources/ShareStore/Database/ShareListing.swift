import GRDB
import ShareKit

/// Turns a `ShareQuery` into one keyset-paged SQL statement (never OFFSET) and runs it.
struct ShareListing {
    let query: ShareQuery

    func fetch(_ db: Database) throws -> SharePage {
        let (sql, arguments) = statement()
        var records = try Row.fetchAll(db, sql: sql, arguments: arguments).map(ShareRow.record)
        guard records.count > query.limit else { return SharePage(records: records, next: nil) }
        records.removeLast(records.count - query.limit)
        return SharePage(records: records, next: cursor(after: records[records.count - 1]))
    }

    /// The SELECT with its arguments; one row more than the page is asked for, to learn whether another page follows.
    func statement() -> (String, StatementArguments) {
        var conditions = [query.trashed ? "trashed_at IS NOT NULL" : "trashed_at IS NULL"]
        var arguments: [any DatabaseValueConvertible] = []
        if let from = query.createdFrom {
            conditions.append("created_at >= ?")
            arguments.append(from.millisecondsSinceEpoch)
        }
        if let before = query.createdBefore {
            conditions.append("created_at < ?")
            arguments.append(before.millisecondsSinceEpoch)
        }
        if let text = query.nameContains, !text.isEmpty {
            // instr is a literal substring test: % and _ mean nothing special.
            conditions.append("instr(name_key, ?) > 0")
            arguments.append(text)
        }
        if let types = query.types {
            conditions.append("type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))")
            arguments.append(contentsOf: types.map(\.rawValue).sorted())
        }
        if let folder = query.folder {
            if !query.recursive {
                conditions.append("folder = ?")
                arguments.append(folder)
            } else if folder != FolderPath.root {
                // Descendants of /a are the folders from "/a/" up to, not including, "/a0" ('0' follows '/').
                let prefix = FolderPath.descendantPrefix(of: folder)
                conditions.append("(folder = ? OR (folder >= ? AND folder < ?))")
                arguments.append(contentsOf: [folder, prefix, String(prefix.dropLast()) + "0"])
            }
        }
        let column = Self.column(for: query.sort)
        let direction = query.order == .asc ? "ASC" : "DESC"
        if let cursor = query.cursor {
            conditions.append("(\(column), id) \(query.order == .asc ? ">" : "<") (?, ?)")
            switch cursor.value {
            case .integer(let number): arguments.append(number)
            case .text(let text): arguments.append(text)
            }
            arguments.append(cursor.id)
        }
        let sql = """
            SELECT \(ShareRow.columns) FROM share WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(column) \(direction), id \(direction) LIMIT \(query.limit + 1)
            """
        return (sql, StatementArguments(arguments))
    }

    private func cursor(after record: ShareRecord) -> ShareCursor {
        let value: ShareCursor.Value
        switch query.sort {
        case .createdAt: value = .integer(record.createdAt.millisecondsSinceEpoch)
        case .size: value = .integer(record.size)
        case .name: value = .text(SearchKey.fold(record.name))
        }
        return ShareCursor(sort: query.sort, order: query.order, value: value, id: record.id)
    }

    static func column(for sort: SortField) -> String {
        switch sort {
        case .createdAt: return "created_at"
        case .name: return "name_key"
        case .size: return "size"
        }
    }
}
