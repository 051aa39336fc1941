import GRDB
import ShareHistory
import ShareKit

/// Turns a `ShareQuery` into keyset-paged SQL (never OFFSET) and writes its rows as JSON. Which rows a page is
/// read from is `ListingPlanner`'s choice.
struct SQLiteListing: Sendable {
    let query: ShareQuery
    /// Whose history it lists: the number its records carry (`SQLiteOwnerNumbers`).
    let owner: Int64
    /// What this database has learnt of how common each trigram is.
    let trigramCounts: TrigramCounts
    /// A search reads at most this many names it took from the trigram index.
    let candidateLimit: Int
    /// Where a long race may run its ordered reads beside the others (`SideRead`).
    let secondReader: SecondReader?
    /// Every condition a row of the page passes: the query's filters, its text tested row by row, and the cursor.
    let filter: SQLiteFilter
    /// The query's filters but live or trashed (which the reads' partial indexes answer) and the cursor: what each
    /// row a read finds is tested with.
    let tests: SQLiteFilter
    /// The cursor's keyset condition, which ordered reads seek to.
    let cursorCondition: SQLiteFilter?
    /// `ORDER BY` the sort, then id, in the query's order.
    let orderBy: SQL

    /// How the page writes its records' links.
    let form: RecordForm
    /// Columns of a listing: a record, plus the folded name a `sort=name` cursor continues from.
    private static let columns = "\(SQLiteRow.columns), name_key"

    init(
        query: ShareQuery, owner: Int64 = OwnerNumber.nobody, form: RecordForm = .plain, trigramCounts: TrigramCounts = TrigramCounts(),
        candidateLimit: Int = TrigramCounts.cap, secondReader: SecondReader? = nil
    ) {
        self.query = query
        self.form = form
        self.owner = owner
        self.trigramCounts = trigramCounts
        self.candidateLimit = candidateLimit
        self.secondReader = secondReader
        let name = query.nameWords.isEmpty ? nil : NameCondition.contains(query.nameWords)
        cursorCondition = query.cursor.map { cursor in
            switch cursor.value {
            case .integer(let number): return Self.keyset(after: number, id: cursor.id, query)
            case .text(let text): return Self.keyset(after: text, id: cursor.id, query)
            }
        }
        tests = SQLiteFilter(testing: query, owner: owner, name: name)
        var filter = SQLiteFilter(live: !query.trashed, owner: owner)
        if let cursorCondition { filter.add(cursorCondition) }
        filter.add(tests)
        self.filter = filter
        let direction = query.order == .asc ? "ASC" : "DESC"
        orderBy = "ORDER BY \(sql: Self.column(for: query.sort)) \(sql: direction), id \(sql: direction)"
    }

    /// Reads one page straight into the JSON array the API answers with: no intermediate records.
    func fetch(_ db: Database, firstBudget: Int? = nil) throws -> SharePage {
        try page(ListingPlanner(self, firstBudget: firstBudget).statement(db), db)
    }

    /// The rows after `key` in the listing's order.
    func condition(after key: SortKey) -> SQLiteFilter {
        // The id as the key holds it, ASCII letters folded: the same order under the column's NOCASE.
        let id = String(decoding: key.id, as: UTF8.self)
        if query.sort == .name { return Self.keyset(after: String(decoding: key.text, as: UTF8.self), id: id, query) }
        return Self.keyset(after: key.number, id: id, query)
    }

    private static func keyset(after value: some DatabaseValueConvertible & Sendable, id: String, _ query: ShareQuery) -> SQLiteFilter {
        SQLiteFilter().adding("(\(sql: column(for: query.sort)), id) \(sql: query.order == .asc ? ">" : "<") (\(value), \(id))")
    }

    /// The SELECT of the page read straight from one index (or where SQLite chooses), testing the name with
    /// `name`; one row more than the page is asked for, to learn whether another page follows.
    func statement(name: NameCondition?, index: String? = nil) -> SQL {
        var filter = SQLiteFilter(live: !query.trashed, owner: owner)
        if let cursorCondition { filter.add(cursorCondition) }
        filter.add(SQLiteFilter(testing: query, owner: owner, name: name))
        let source = index.map { "share INDEXED BY \($0)" } ?? "share"
        return "SELECT \(sql: Self.columns) FROM \(sql: source) WHERE \(filter.sql) \(orderBy) LIMIT \(query.limit + 1)"
    }

    /// The SELECT of the page among `candidates` (by `seq`) only, each still tested against every filter.
    func statement(among candidates: [Int64]) -> SQL {
        statement(Self.columns, from: Self.list(candidates))
    }

    /// The page's `seq`, sort value and id among `candidates` (by `seq`), each tested against every filter.
    func keyedRows(among candidates: [Int64]) -> SQL {
        statement("seq, \(Self.column(for: query.sort)), id", from: Self.list(candidates))
    }

    /// The page's `seq`, sort value and id among the names the trigram index finds holding `words`.
    func keyedRows(matching words: [String]) -> SQL {
        statement("seq, \(Self.column(for: query.sort)), id", from: NameIndex.rows(holding: words, owner: owner))
    }

    /// A subquery selecting `rows` as `value`.
    private static func list(_ rows: [Int64]) -> SQL {
        "SELECT value FROM json_each(\("[" + rows.map(String.init).joined(separator: ",") + "]"))"
    }

    /// `columns` of the page among the rows (`seq`) a subquery names as `value`.
    private func statement(_ columns: String, from rows: SQL) -> SQL {
        // CROSS JOIN keeps SQLite from reading a type's or a folder's index in full and probing the list instead.
        """
        SELECT \(sql: columns) FROM (\(rows)) AS candidate CROSS JOIN share ON seq = candidate.value
        WHERE \(filter.sql) \(orderBy) LIMIT \(query.limit + 1)
        """
    }

    /// Writes the rows of `statement` as a page, and the cursor of the next one if there is one more row.
    func page(_ statement: SQL, _ db: Database) throws -> SharePage {
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(query.limit * 160)
        var count = 0
        var last = LastRow(sort: query.sort)
        var next: ShareCursor?
        try StatementColumns.forEachRow(of: statement, db) { row in
            guard count < query.limit else {
                next = last.cursor(order: query.order)
                return false
            }
            if count > 0 { body.append(UInt8(ascii: ",")) }
            SQLiteRow.appendJSON(row, form, to: &body)
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
        case .downloads: return "downloads"
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
        case .downloads: number = row.integer(12)
        case .name:
            name.removeAll(keepingCapacity: true)
            name.append(contentsOf: row.text(SQLiteRow.columnCount))
        }
    }

    func cursor(order: ListingOrder) -> ShareCursor {
        let value: ShareCursor.Value = sort == .name ? .text(String(decoding: name, as: UTF8.self)) : .integer(number)
        return ShareCursor(sort: sort, order: order, value: value, id: String(decoding: id, as: UTF8.self))
    }
}
