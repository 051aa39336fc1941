import GRDB
import ShareKit

/// Turns a `ShareQuery` into one keyset-paged SQL statement (never OFFSET) and writes its rows as JSON.
struct ShareListing {
    let query: ShareQuery

    /// Columns of a listing: a record, plus the folded name a `sort=name` cursor continues from.
    private static let columns = "\(ShareRow.columns), name_key"

    /// Reads one page straight into the JSON array the API answers with: no intermediate records.
    func fetch(_ db: Database) throws -> SharePage {
        let (sql, arguments) = statement()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(query.limit * 160)
        var count = 0
        var last: ShareCursor?
        while let row = try rows.next() {
            guard count < query.limit else {
                return SharePage(body: body + [UInt8(ascii: "]")], count: count, next: last)
            }
            if count > 0 { body.append(UInt8(ascii: ",")) }
            let id: String = row[0]
            let createdAt: Int64 = row[3]
            let size: Int64 = row[4]
            RecordJSON.append(
                id: id, name: row[1], folder: row[2], createdAt: createdAt, size: size, type: row[5], trashedAt: row[6],
                to: &body)
            count += 1
            let value: ShareCursor.Value
            switch query.sort {
            case .createdAt: value = .integer(createdAt)
            case .size: value = .integer(size)
            case .name: value = .text(row[7])
            }
            last = ShareCursor(sort: query.sort, order: query.order, value: value, id: id)
        }
        return SharePage(body: body + [UInt8(ascii: "]")], count: count, next: nil)
    }

    /// The SELECT with its arguments; one row more than the page is asked for, to learn whether another page follows.
    func statement() -> (String, StatementArguments) {
        var filter = ShareFilter(query)
        let column = Self.column(for: query.sort)
        let direction = query.order == .asc ? "ASC" : "DESC"
        if let cursor = query.cursor {
            let value: any DatabaseValueConvertible
            switch cursor.value {
            case .integer(let number): value = number
            case .text(let text): value = text
            }
            filter.add("(\(column), id) \(query.order == .asc ? ">" : "<") (?, ?)", [value, cursor.id])
        }
        let sql = """
            SELECT \(Self.columns) FROM share WHERE \(filter.whereClause)
            ORDER BY \(column) \(direction), id \(direction) LIMIT \(query.limit + 1)
            """
        return (sql, StatementArguments(filter.arguments))
    }

    static func column(for sort: SortField) -> String {
        switch sort {
        case .createdAt: return "created_at"
        case .name: return "name_key"
        case .size: return "size"
        }
    }
}
