import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// One page of a listing: keyset-paged SQL (never OFFSET) over the indexes of each sort, written straight into
/// the JSON array the API answers with. Pages and cursors are the SQLite store's, byte for byte: the same order
/// (the folded name and the id compared as bytes, ids with ASCII letters folded), the same cursor values.
struct PostgresListing {
    let query: ShareQuery
    /// Whose history: the number its records carry (`PostgresOwnerNumbers`).
    let owner: Int64
    /// How the page writes its records' links.
    var form = RecordForm.plain

    func fetch(_ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, logger: Logger) async throws -> SharePage {
        var body: [UInt8] = [UInt8(ascii: "[")]
        var count = 0
        var last: PostgresRow?
        var next: ShareCursor?
        let rows = try await prepared.rows(try statement(), on: connection, logger: logger)
        for try await row in rows {
            guard count < query.limit else {
                next = try last.map(cursor(after:))
                break
            }
            var cells = row.makeIterator()
            if count > 0 { body.append(UInt8(ascii: ",")) }
            try PostgresRows.Columns(&cells).appendJSON(form, to: &body)
            count += 1
            last = row
        }
        body.append(UInt8(ascii: "]"))
        return SharePage(body: body, next: next)
    }

    /// The page's SELECT: one row more than the page is asked for, to learn whether another page follows.
    func statement() throws -> BoundSQL {
        // The folded name only for a cursor of names: a column sent in every row costs the node at every row.
        var sql = BoundSQL("SELECT \(PostgresRows.columns)\(query.sort == .name ? ", name_key" : "") FROM share WHERE ")
        try PostgresFilter.append(query, owner: owner, to: &sql)
        let column = Self.column(for: query.sort)
        let direction = query.order == .asc ? "ASC" : "DESC"
        if let cursor = query.cursor {
            sql.append(" AND (\(column), id_key) \(query.order == .asc ? ">" : "<") (")
            switch cursor.value {
            case .integer(let number): sql.bind(number)
            case .text(let text): sql.bind(text)
            }
            sql.append(", ")
            sql.bind(PostgresRows.idKey(cursor.id))
            sql.append(")")
        }
        // A number, not a parameter: with an unknown limit the prepared pages' generic plan is costed as reading every
        // row, so PostgreSQL would plan them anew at every run.
        sql.append(" ORDER BY \(column) \(direction), id_key \(direction) LIMIT \(query.limit + 1)")
        return sql
    }

    /// Where the next page starts: after the last row of this one.
    private func cursor(after row: PostgresRow) throws -> ShareCursor {
        var cells = row.makeIterator()
        let columns = try PostgresRows.Columns(&cells)
        let value: ShareCursor.Value
        switch query.sort {
        case .createdAt: value = .integer(columns.createdAt)
        case .size: value = .integer(columns.size)
        case .downloads: value = .integer(columns.downloads)
        case .name: value = .text(try cells.following().string())
        }
        return ShareCursor(sort: query.sort, order: query.order, value: value, id: String(buffer: columns.id))
    }

    static func column(for sort: ListingSort) -> String {
        switch sort {
        case .createdAt: return "created_at"
        case .name: return "name_key"
        case .size: return "size"
        case .downloads: return "downloads"
        }
    }
}
