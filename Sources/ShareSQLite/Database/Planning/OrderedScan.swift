import GRDB
import ShareHistory
import ShareKit

/// An ordered read: each seek is read in the listing's order, SQLite testing each row itself so that only
/// matches leave it, until the seek has a page of matches or runs out of rows. Tried with a budget of work, a seek
/// cut short keeps what it found and resumes after its last match.
struct OrderedScan: Sendable {
    let read: IndexRead
    private var seeks: [Progress]

    /// How far one seek has got.
    private struct Progress: Sendable {
        /// In the listing's order: the last is where a read cut short resumes.
        var matches: [(seq: Int64, key: SortKey)] = []
        var done = false
    }

    init(_ read: IndexRead) {
        self.read = read
        seeks = Array(repeating: Progress(), count: read.seeks.count)
    }

    /// Reads each unfinished seek on, with `work` more each (nil: no limit); true once every seek is done.
    mutating func advance(work: Int?, _ listing: SQLiteListing, _ db: Database) throws -> Bool {
        for index in seeks.indices where !seeks[index].done {
            let rows = read.orderedRows(read.seeks[index], after: seeks[index].matches.last?.key, listing)
            var progress = seeks[index]
            let finished: Void? = try WorkBudget.run(db, work: work) {
                try StatementColumns.forEachRow(of: rows, db) { row in
                    progress.matches.append((row.integer(0), SortKey(row, sort: listing.query.sort, column: 1)))
                    return progress.matches.count <= listing.query.limit
                }
            }
            progress.done = finished != nil
            seeks[index] = progress
        }
        return seeks.allSatisfy(\.done)
    }

    /// The rows of the page, once `advance` said it is complete: the first matches of all seeks together.
    func page(_ listing: SQLiteListing) -> [Int64] {
        ListingPlanner.first(seeks.flatMap(\.matches), listing)
    }
}
