import GRDB
import ShareKit

/// Turns a `ShareQuery` into keyset-paged SQL (never OFFSET) and writes its rows as JSON.
struct ShareListing {
    let query: ShareQuery

    /// Columns of a listing: a record, plus the folded name a `sort=name` cursor continues from.
    private static let columns = "\(ShareRow.columns), name_key"
    /// Rows read in order, testing each name, before a search is handed to the trigram index.
    static let scanBudget = 2000

    /// Reads one page straight into the JSON array the API answers with: no intermediate records.
    ///
    /// A search text first gets an ordered read of at most `scanBudget` rows: a common word fills the page long
    /// before that, where the trigram index would have to collect and sort every match. Only when the read was cut
    /// short with the page unfilled is the text rare, and the index answers it.
    func fetch(_ db: Database) throws -> SharePage {
        guard let text = query.nameContains, NameSearch.preferred(for: text) == .trigramIndex else {
            return try page(statement(), db)
        }
        let scanned = try page(statement(scanningAtMost: Self.scanBudget), db)
        guard scanned.next == nil, try budgetRanOut(db) else { return scanned }
        return try page(statement(), db)
    }

    /// The SELECT with its arguments; one row more than the page is asked for, to learn whether another page follows.
    ///
    /// With `scanningAtMost`, only that many rows are read in order and their names tested one by one.
    func statement(scanningAtMost budget: Int? = nil) -> (String, StatementArguments) {
        let (filter, order) = ordered(nameSearch: budget == nil ? nil : .omitted)
        guard let budget, let text = query.nameContains else {
            let sql = "SELECT \(Self.columns) FROM share WHERE \(filter.whereClause) \(order) LIMIT \(query.limit + 1)"
            return (sql, StatementArguments(filter.arguments))
        }
        let sql = """
            SELECT * FROM (SELECT \(Self.columns) FROM share WHERE \(filter.whereClause) \(order) LIMIT \(budget))
            WHERE instr(name_key, ?) > 0 \(order) LIMIT \(query.limit + 1)
            """
        return (sql, StatementArguments(filter.arguments + [text]))
    }

    /// Whether more rows follow the ones an ordered search read (so it could not tell that nothing else matches).
    private func budgetRanOut(_ db: Database) throws -> Bool {
        let (filter, order) = ordered(nameSearch: .omitted)
        let sql = "SELECT count(*) FROM (SELECT 1 FROM share WHERE \(filter.whereClause) \(order) LIMIT \(Self.scanBudget + 1))"
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(filter.arguments)) ?? 0 > Self.scanBudget
    }

    /// The filters with the cursor's keyset condition, and the ORDER BY that pages follow.
    private func ordered(nameSearch: NameSearch?) -> (ShareFilter, String) {
        var filter = ShareFilter(query, nameSearch: nameSearch)
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
        return (filter, "ORDER BY \(column) \(direction), id \(direction)")
    }

    /// Writes the rows of `statement` as a page.
    private func page(_ statement: (String, StatementArguments), _ db: Database) throws -> SharePage {
        let (sql, arguments) = statement
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

    static func column(for sort: SortField) -> String {
        switch sort {
        case .createdAt: return "created_at"
        case .name: return "name_key"
        case .size: return "size"
        }
    }
}
