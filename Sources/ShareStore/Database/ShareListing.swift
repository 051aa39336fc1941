import GRDB
import ShareKit

/// Turns a `ShareQuery` into keyset-paged SQL (never OFFSET) and writes its rows as JSON.
struct ShareListing: Sendable {
    let query: ShareQuery
    /// What this database has learnt of how common each trigram is.
    let trigramCounts: TrigramCounts
    /// A search reads at most this many names it took from the trigram index, or from an ordered read.
    let candidateLimit: Int
    /// Rows an ordered read may test before the search asks the trigram index for the whole text after all.
    let scanBudget: Int
    /// The query's filters and the cursor's keyset condition, without the name: built once, each read adds its own.
    private let keyset: ShareFilter
    /// `ORDER BY` the sort, then id, in the query's order.
    private let orderBy: String

    /// Columns of a listing: a record, plus the folded name a `sort=name` cursor continues from.
    private static let columns = "\(ShareRow.columns), name_key"

    init(
        query: ShareQuery, trigramCounts: TrigramCounts = TrigramCounts(), candidateLimit: Int = TrigramCounts.cap,
        scanBudget: Int = 20_000
    ) {
        self.query = query
        self.trigramCounts = trigramCounts
        self.candidateLimit = candidateLimit
        self.scanBudget = scanBudget
        var keyset = ShareFilter(query, name: nil)
        let column = Self.column(for: query.sort)
        if let cursor = query.cursor {
            let value: any DatabaseValueConvertible & Sendable
            switch cursor.value {
            case .integer(let number): value = number
            case .text(let text): value = text
            }
            keyset.add("(\(column), id) \(query.order == .asc ? ">" : "<") (?, ?)", [value, cursor.id])
        }
        self.keyset = keyset
        let direction = query.order == .asc ? "ASC" : "DESC"
        orderBy = "ORDER BY \(column) \(direction), id \(direction)"
    }

    /// Reads one page straight into the JSON array the API answers with: no intermediate records. Where the rows
    /// come from is `NameSearch`'s decision.
    func fetch(_ db: Database) throws -> SharePage {
        switch try NameSearch.choose(for: self, db) {
        case .filter(let condition): return try page(statement(name: condition), db)
        case .rows(let rows): return try page(statement(among: rows), db)
        }
    }

    /// The rows holding `text` that open the page, in order, one more than the page when there are that many:
    /// found by reading rows in order and testing each name. Nil if `scanBudget` rows did not fill the page.
    func orderedMatches(of text: String, _ db: Database) throws -> [Int64]? {
        let (sql, arguments) = orderedRead(of: text)
        var matches: [Int64] = []
        try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
            matches.append(row.integer(0))
            return true
        }
        guard matches.count <= query.limit else { return matches }
        // Fewer matches than a page: all there are if the rows ran out before the budget did.
        let rows =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM share WHERE \(keyset.whereClause) LIMIT ?)"),
                arguments: StatementArguments(keyset.arguments + [scanBudget])) ?? 0
        return rows < scanBudget ? matches : nil
    }

    /// The first matches among at most `scanBudget` rows in the listing's order. Only indexed columns are read,
    /// so the table itself is not touched, and only matches leave SQLite.
    ///
    /// The outer query keeps the order of the inner one: a subquery with LIMIT is not flattened into an outer
    /// query with WHERE, so SQLite runs it as a co-routine and filters its rows as they come.
    func orderedRead(of text: String) -> (String, StatementArguments) {
        // The name is tested inside, where SQLite reads it in place from the index page; passed out of the
        // subquery, it would be copied row by row.
        let sql = """
            SELECT seq FROM (SELECT seq, instr(name_key, ?) > 0 AS found FROM share WHERE \(keyset.whereClause) \(orderBy) LIMIT ?)
            WHERE found LIMIT ?
            """
        return (sql, StatementArguments([text] + keyset.arguments + [scanBudget, query.limit + 1]))
    }

    /// The SELECT of the listing's own read, testing the name with `name`; one row more than the page is asked
    /// for, to learn whether another page follows.
    func statement(name: NameCondition?) -> (String, StatementArguments) {
        var filter = keyset
        filter.add(name)
        let sql = "SELECT \(Self.columns) FROM share WHERE \(filter.whereClause) \(orderBy) LIMIT ?"
        return (sql, StatementArguments(filter.arguments + [query.limit + 1]))
    }

    /// The SELECT of every match, as statistics would find them (`NameSearch.condition`); with `candidates`, of
    /// those rows only (by `seq`), each name still tested against the text.
    func statement(among candidates: [Int64]? = nil) -> (String, StatementArguments) {
        guard let candidates else { return statement(name: NameSearch.condition(for: query.nameContains)) }
        var filter = keyset
        filter.add(query.nameContains.map(NameCondition.contains))
        // CROSS JOIN keeps SQLite from reading a type's or a folder's index in full and probing the list instead.
        let sql = """
            SELECT \(Self.columns) FROM (SELECT value FROM json_each(?)) AS candidate CROSS JOIN share ON seq = candidate.value
            WHERE \(filter.whereClause) \(orderBy) LIMIT ?
            """
        let list = "[" + candidates.map(String.init).joined(separator: ",") + "]"
        return (sql, StatementArguments([list] + filter.arguments + [query.limit + 1]))
    }

    /// Writes the rows of `statement` as a page, and the cursor of the next one if there is one more row.
    private func page(_ statement: (String, StatementArguments), _ db: Database) throws -> SharePage {
        let (sql, arguments) = statement
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(query.limit * 160)
        var count = 0
        var last = LastRow(sort: query.sort)
        var next: ShareCursor?
        try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
            guard count < query.limit else {
                next = last.cursor(order: query.order)
                return false
            }
            if count > 0 { body.append(UInt8(ascii: ",")) }
            ShareRow.appendJSON(row, to: &body)
            count += 1
            last.copy(row)
            return true
        }
        body.append(UInt8(ascii: "]"))
        return SharePage(body: body, next: next)
    }

    static func column(for sort: ListingSort) -> String {
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
    let sort: ListingSort
    private var id: [UInt8] = []
    private var number: Int64 = 0
    private var name: [UInt8] = []

    init(sort: ListingSort) {
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

    func cursor(order: ListingOrder) -> ShareCursor {
        let value: ShareCursor.Value = sort == .name ? .text(String(decoding: name, as: UTF8.self)) : .integer(number)
        return ShareCursor(sort: sort, order: order, value: value, id: String(decoding: id, as: UTF8.self))
    }
}
