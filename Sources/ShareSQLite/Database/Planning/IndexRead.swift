import GRDB
import ShareHistory
import ShareKit

/// A read of one index: one seek per value of its leading column (each type asked for, say), or of a range.
/// Each seek's conditions are the ones the index answers by itself; every other filter is tested row by row.
struct IndexRead: Sendable {
    /// Named to SQLite with INDEXED BY, so that the read done is the read chosen.
    let index: String
    let seeks: [SQLiteFilter]
    /// Whether the seeks alone select exactly the listing's rows, in order: no row needs testing.
    var answersEveryFilter = false
    /// Whether rows are read from the table, not only from the index: a step of such a read takes longer.
    var readsTable = false
    /// Whether only the rows the trigram index names for the text are tested further: the others are passed over in
    /// the index, never looked up in the table.
    var amongNamed = false
    /// How the running totals count the read's rows, when they can.
    var totals: RowTotals?

    /// The first page of a seek's matches, with their sort keys, from an index that holds them in another order:
    /// read whole and sorted. SQLite tests each row in the WHERE clause, in order, reading the columns the index
    /// holds in place and the table only for rows that passed those.
    func matches(_ seek: SQLiteFilter, _ listing: SQLiteListing) -> SQL {
        var conditions = seek
        // The filters before the cursor: it bounds the sort's column, which this index may not hold.
        conditions.add(
            amongNamed ? SQLiteFilter(testing: listing.query, owner: listing.owner, name: .fullText(listing.query.nameWords)) : listing.tests)
        if let cursor = listing.cursorCondition { conditions.add(cursor) }
        return """
            SELECT seq, \(sql: SQLiteListing.column(for: listing.query.sort)), id FROM share INDEXED BY \(sql: index)
            WHERE \(conditions.sql) \(listing.orderBy) LIMIT \(listing.query.limit + 1)
            """
    }

    /// The work of a row read from an index alone, and of one looked up in the table too (`ListingRead.rowWork`).
    static let indexRowWork = 15
    static let tableRowWork = 120
    /// The work of a row read from an index and probed in the trigram index's names (`amongNamed`).
    static let namedRowWork = 40

    /// Counts the rows of a seek, up to `limit`, from the index alone.
    func countingRows(_ seek: SQLiteFilter, upTo limit: Int) -> SQL {
        "SELECT count(*) FROM (SELECT 1 FROM share INDEXED BY \(sql: index) WHERE \(seek.sql) LIMIT \(limit))"
    }

    /// A seek's matches in the listing's order, from the one after `resume` on (else after the cursor): SQLite tests
    /// each row itself, so that only matches leave it. A read cut short resumes after its last match, reading again
    /// the rows it had passed over since.
    func orderedRows(_ seek: SQLiteFilter, after resume: SortKey?, _ listing: SQLiteListing) -> SQL {
        // One bound on the sort's column: SQLite seeks to it, and tests it again on every row.
        var conditions = resume.map(listing.condition(after:)) ?? listing.cursorCondition ?? SQLiteFilter()
        conditions.add(seek)
        conditions.add(listing.tests)
        return """
            SELECT seq, \(sql: SQLiteListing.column(for: listing.query.sort)), id
            FROM share INDEXED BY \(sql: index) WHERE \(conditions.sql) \(listing.orderBy)
            """
    }
}
