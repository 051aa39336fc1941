import GRDB
import ShareKit

/// An ordered read in progress: each seek is read in the listing's order, testing every row, until it has a page
/// of matches or runs out of rows. `advance` goes on from where the last call stopped, so a scan given a larger
/// budget round after round reads each row once.
struct OrderedScan {
    let read: IndexRead
    private var seeks: [Progress]

    private struct Progress {
        var matches: [(seq: Int64, key: SortKey)] = []
        /// The key of the last row read; none before the first.
        var last = SortKey()
        var rowsRead = 0
        var exhausted = false
    }

    init(_ read: IndexRead) {
        self.read = read
        seeks = Array(repeating: Progress(), count: read.seeks.count)
    }

    /// Reads each unfinished seek until it has read `budget` rows in all; true once every seek has its page.
    mutating func advance(budget: Int, _ listing: ShareListing, _ db: Database) throws -> Bool {
        let wanted = listing.query.limit + 1
        let sort = listing.query.sort
        for index in seeks.indices {
            var progress = seeks[index]
            guard progress.matches.count < wanted, !progress.exhausted, progress.rowsRead < budget else { continue }
            let rows = budget - progress.rowsRead
            let (sql, arguments) = read.orderedScan(
                read.seeks[index], after: progress.rowsRead > 0 ? progress.last : nil, rows: rows, listing)
            var readNow = 0
            try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
                readNow += 1
                progress.last.load(row, sort: sort, column: 1)
                if row.integer(3) != 0 { progress.matches.append((row.integer(0), progress.last)) }
                return progress.matches.count < wanted
            }
            progress.rowsRead += readNow
            progress.exhausted = readNow < rows && progress.matches.count < wanted
            seeks[index] = progress
        }
        return seeks.allSatisfy { $0.matches.count >= wanted || $0.exhausted }
    }

    /// The rows of the page, once `advance` said it is complete: the first matches of all seeks together.
    func page(_ listing: ShareListing) -> [Int64] {
        ListingPlanner.first(seeks.flatMap(\.matches), listing)
    }
}
