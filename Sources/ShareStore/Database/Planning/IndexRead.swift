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

    /// The first page of a seek's matches, with their sort keys: read in order where the index follows the
    /// listing's order, else read whole and sorted. SQLite tests each row in the WHERE clause, in order, reading
    /// the columns the index holds in place and the table only for rows that passed those.
    func matches(_ seek: ShareFilter, _ listing: ShareListing) -> (String, StatementArguments) {
        var conditions = seek
        conditions.add(listing.rowTest)
        let sql = """
            SELECT seq, \(ShareListing.column(for: listing.query.sort)), id FROM share INDEXED BY \(index)
            WHERE \(conditions.whereClause) \(listing.orderBy) LIMIT ?
            """
        return (sql, StatementArguments(conditions.arguments + [listing.query.limit + 1]))
    }
}
