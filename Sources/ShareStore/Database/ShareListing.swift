import GRDB
import ShareKit

/// Turns a `ShareQuery` into keyset-paged SQL (never OFFSET) and writes its rows as JSON.
struct ShareListing {
    let query: ShareQuery
    /// A text with at least this many matching names is common: reading rows in order finds a page quickly.
    var commonMatches = 2000
    /// Rows a common text's ordered read may take before the trigram index is asked after all.
    var scanBudget = 50_000

    /// Columns of a listing: a record, plus the folded name a `sort=name` cursor continues from.
    private static let columns = "\(ShareRow.columns), name_key"

    /// Reads one page straight into the JSON array the API answers with: no intermediate records.
    ///
    /// A rare text is answered by the trigram index: few matches to sort. A common one is not, since the index
    /// would collect and sort every match; rows are read in order instead, testing each name, which fills a page
    /// after a few hundred rows. The index tells which is which, counting at most `commonMatches` matches.
    func fetch(_ db: Database) throws -> SharePage {
        guard let text = query.nameContains, NameSearch.preferred(for: text) == .trigramIndex, try isCommon(text, db) else {
            return try page(statement(), db).page
        }
        let (scanned, read) = try page(statement(scanningAtMost: scanBudget), db)
        guard scanned.next == nil, read >= scanBudget else { return scanned }
        return try page(statement(), db).page
    }

    private func isCommon(_ text: String, _ db: Database) throws -> Bool {
        let sql = "SELECT count(*) FROM (SELECT rowid FROM share_name_search WHERE share_name_search MATCH ? LIMIT \(commonMatches))"
        return try Int.fetchOne(db, sql: sql, arguments: [ShareFilter.phrase(text)]) ?? 0 >= commonMatches
    }

    /// The SELECT with its arguments; one row more than the page is asked for, to learn whether another page follows.
    ///
    /// With `scanningAtMost`, rows come in order with a last column telling whether the name contains the text, and
    /// at most that many are read: the caller keeps the matches and stops as soon as its page is full.
    func statement(scanningAtMost budget: Int? = nil) -> (String, StatementArguments) {
        let (filter, order) = ordered(nameSearch: budget == nil ? nil : .omitted)
        guard let budget, let text = query.nameContains else {
            let sql = "SELECT \(Self.columns), 1 FROM share WHERE \(filter.whereClause) \(order) LIMIT ?"
            return (sql, StatementArguments(filter.arguments + [query.limit + 1]))
        }
        let sql = "SELECT \(Self.columns), instr(name_key, ?) > 0 FROM share WHERE \(filter.whereClause) \(order) LIMIT ?"
        return (sql, StatementArguments([text] + filter.arguments + [budget]))
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

    /// Writes the rows of `statement` whose last column is true as a page; also tells how many rows were read.
    private func page(_ statement: (String, StatementArguments), _ db: Database) throws -> (page: SharePage, read: Int) {
        let (sql, arguments) = statement
        let prepared = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(prepared, arguments: arguments)
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(query.limit * 160)
        var count = 0
        var read = 0
        var last = LastRow(sort: query.sort)
        while try rows.next() != nil {
            let row = StatementColumns(prepared)
            read += 1
            guard row.integer(8) != 0 else { continue }
            guard count < query.limit else {
                return (SharePage(body: body + [UInt8(ascii: "]")], next: last.cursor(order: query.order)), read)
            }
            if count > 0 { body.append(UInt8(ascii: ",")) }
            ShareRow.appendJSON(row, to: &body)
            count += 1
            last.copy(row)
        }
        return (SharePage(body: body + [UInt8(ascii: "]")], next: nil), read)
    }

    static func column(for sort: SortField) -> String {
        switch sort {
        case .createdAt: return "created_at"
        case .name: return "name_key"
        case .size: return "size"
        }
    }
}

/// The sort value and id of the last row written to a page: where the next page starts. Copied as bytes, reusing
/// the same storage row after row, so that no `String` is made until the cursor is.
private struct LastRow {
    let sort: SortField
    private var id: [UInt8] = []
    private var number: Int64 = 0
    private var name: [UInt8] = []

    init(sort: SortField) {
        self.sort = sort
    }

    /// Remembers `row`, selected with the listing's columns.
    mutating func copy(_ row: StatementColumns) {
        id.removeAll(keepingCapacity: true)
        id.append(contentsOf: row.text(0))
        switch sort {
        case .createdAt: number = row.integer(3)
        case .size: number = row.integer(4)
        case .name:
            name.removeAll(keepingCapacity: true)
            name.append(contentsOf: row.text(7))
        }
    }

    func cursor(order: SortDirection) -> ShareCursor {
        let value: ShareCursor.Value = sort == .name ? .text(String(decoding: name, as: UTF8.self)) : .integer(number)
        return ShareCursor(sort: sort, order: order, value: value, id: String(decoding: id, as: UTF8.self))
    }
}
