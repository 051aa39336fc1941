import GRDB
import ShareKit

/// An ordered read: each seek is read in the listing's order, SQLite testing each row itself so that only
/// matches leave it, until the seek has a page of matches or runs out of rows. Tried with a budget of steps,
/// a seek that did not finish starts again next time, with a larger budget; one that finished is kept.
struct OrderedScan {
    let read: IndexRead
    private var seeks: [[(seq: Int64, key: SortKey)]?]

    init(_ read: IndexRead) {
        self.read = read
        seeks = Array(repeating: nil, count: read.seeks.count)
    }

    /// Reads each unfinished seek with `steps` of work each (nil: no limit); true once every seek is done.
    mutating func advance(steps: Int?, _ listing: ShareListing, _ db: Database) throws -> Bool {
        for index in seeks.indices where seeks[index] == nil {
            let statement = read.matches(read.seeks[index], listing)
            seeks[index] = try StepBudget.run(db, steps: steps) { try ListingPlanner.keyedRows(statement, listing, db) }
        }
        return seeks.allSatisfy { $0 != nil }
    }

    /// The rows of the page, once `advance` said it is complete: the first matches of all seeks together.
    func page(_ listing: ShareListing) -> [Int64] {
        ListingPlanner.first(seeks.flatMap { $0 ?? [] }, listing)
    }
}
