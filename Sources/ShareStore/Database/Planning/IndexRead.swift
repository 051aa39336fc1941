import GRDB
import ShareKit

/// A read of one index: one seek per value of its leading column (each type asked for, say), or of a range.
/// Each seek's conditions are the ones the index answers by itself; every other filter is tested row by row.
struct IndexRead {
    /// Named to SQLite with INDEXED BY, so that the read done is the read chosen.
    let index: String
    let seeks: [ShareFilter]
    /// Whether the seeks alone select exactly the listing's rows, in order: no row needs testing.
    var answersEveryFilter = false

    /// The rows of one seek in the listing's order, with each row's sort key and whether it passes every filter.
    ///
    /// Rows come out one by one, matching or not, so that the caller counts what SQLite read; the continuation
    /// starts right after `after`.
    func orderedScan(_ seek: ShareFilter, after: SortKey?, rows: Int, _ listing: ShareListing) -> (String, StatementArguments) {
        var conditions = seek
        if let after { conditions.add(listing.condition(after: after)) }
        let column = ShareListing.column(for: listing.query.sort)
        let sql = """
            SELECT seq, \(column), id, \(listing.rowTest.isEmpty ? "1" : listing.rowTest.whereClause) FROM share INDEXED BY \(index)
            WHERE \(conditions.whereClause) \(listing.orderBy) LIMIT ?
            """
        return (sql, StatementArguments(listing.rowTest.arguments + conditions.arguments + [rows]))
    }

    /// How many rows one seek reads, counted up to `limit`.
    func count(_ seek: ShareFilter, upTo limit: Int) -> (String, StatementArguments) {
        let sql = "SELECT count(*) FROM (SELECT 1 FROM share INDEXED BY \(index) WHERE \(seek.whereClause) LIMIT ?)"
        return (sql, StatementArguments(seek.arguments + [limit]))
    }

    /// One page of a seek's matches, read whole and sorted, with their sort keys.
    func sortedMatches(_ seek: ShareFilter, _ listing: ShareListing) -> (String, StatementArguments) {
        var conditions = seek
        conditions.add(listing.rowTest)
        let column = ShareListing.column(for: listing.query.sort)
        let sql = """
            SELECT seq, \(column), id FROM share INDEXED BY \(index)
            WHERE \(conditions.whereClause) \(listing.orderBy) LIMIT ?
            """
        return (sql, StatementArguments(conditions.arguments + [listing.query.limit + 1]))
    }
}
