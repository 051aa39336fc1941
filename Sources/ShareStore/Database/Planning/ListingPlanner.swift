import GRDB
import ShareKit

/// Chooses, for one page, how to find its rows, so that SQLite reads about as few rows as the better read would.
///
/// Where one index serves every filter and the order (a type by name, a day by time, several types merged),
/// that index is read. Otherwise two kinds of read compete: reading an index in the listing's order and testing
/// each row until a page passes (cheap when the filters are common), and reading every row of a filter's index
/// and sorting (cheap when the filter is rare). Which one wins is not guessed from statistics: the reads race,
/// each allowed a budget of rows that grows fourfold round by round, and the first to finish within its budget
/// gives the page. Ordered reads go on where they stopped, counts start again; either way the work is a small
/// multiple of what the winning read alone costs.
struct ListingPlanner {
    let listing: ShareListing
    /// The rows each read may touch in the first round.
    let firstBudget: Int

    init(_ listing: ShareListing, firstBudget: Int? = nil) {
        self.listing = listing
        self.firstBudget = firstBudget ?? listing.query.limit + 1
    }

    var query: ShareQuery { listing.query }

    /// Where the page comes from: the statement of the read that won, ready to be written as a page.
    func statement(_ db: Database) throws -> (String, StatementArguments) {
        if query.trashed {
            // The trash is small (purged after `trash_days`) and has an index of its own: read whole and sorted.
            return listing.statement(name: NameCondition(everyMatchOf: query.nameContains))
        }
        if let serving = orderedReads().first(where: \.answersEveryFilter) { return try statement(of: .ordered(serving), db) }
        var scans: [OrderedScan] = []
        var named: [Int64]?
        var others: [ListingRead] = []
        for read in try reads(db) {
            switch read {
            case .ordered(let indexRead): scans.append(OrderedScan(indexRead))
            case .candidates(let rows): named = rows
            case .unordered, .fullText: others.append(read)
            }
        }
        var budget = firstBudget
        while true {
            // Rows the trigram index named cost what their count says, known without reading anything more.
            if let named, named.count < budget { return listing.statement(among: named) }
            // Ordered reads first: they go on where they stopped, while a count starts again each round.
            for index in scans.indices where try scans[index].advance(budget: budget, listing, db) {
                return listing.statement(among: scans[index].page(listing))
            }
            for read in others where try cost(of: read, upTo: budget, db) < budget { return try statement(of: read, db) }
            // The ordered read of the whole sort index ends when its rows do, so the race always ends.
            budget *= 4
        }
    }

    /// Every read that can answer the page, the ordered ones first.
    func reads(_ db: Database) throws -> [ListingRead] {
        var reads = orderedReads().map(ListingRead.ordered) + unorderedReads().map(ListingRead.unordered)
        if case .fullText(let text) = NameCondition(everyMatchOf: query.nameContains) {
            if let rows = try listing.trigramCounts.candidates(for: text, limit: listing.candidateLimit, db) {
                reads.append(.candidates(rows))
            }
            reads.append(.fullText(text))
        }
        return reads
    }

    /// The statement of the page from `read`, read in full.
    func statement(of read: ListingRead, _ db: Database) throws -> (String, StatementArguments) {
        switch read {
        case .ordered(let indexRead) where indexRead.seeks.count == 1 && indexRead.answersEveryFilter:
            return listing.statement(name: nil, index: indexRead.index)
        case .ordered(let indexRead):
            var scan = OrderedScan(indexRead)
            _ = try scan.advance(budget: .max, listing, db)
            return listing.statement(among: scan.page(listing))
        case .unordered(let indexRead):
            var matches: [(seq: Int64, key: SortKey)] = []
            for seek in indexRead.seeks {
                let (sql, arguments) = indexRead.sortedMatches(seek, listing)
                try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
                    matches.append((row.integer(0), SortKey(row, sort: query.sort, column: 1)))
                    return true
                }
            }
            return listing.statement(among: Self.first(matches, listing))
        case .candidates(let rows):
            return listing.statement(among: rows)
        case .fullText(let text):
            return listing.statement(matching: text)
        }
    }

    /// The rows `read` touches, counted up to `limit` (an ordered read's cost is found by running it).
    private func cost(of read: ListingRead, upTo limit: Int, _ db: Database) throws -> Int {
        switch read {
        case .ordered: return limit
        case .unordered(let indexRead):
            var total = 0
            for seek in indexRead.seeks where total < limit {
                let (sql, arguments) = indexRead.count(seek, upTo: limit - total)
                total += try count(sql, arguments, db)
            }
            return total
        case .candidates(let rows): return rows.count
        case .fullText where limit <= listing.candidateLimit:
            // No candidates were named: the text's trigrams each have more names than that, and so many index
            // entries are read before the first match.
            return limit
        case .fullText(let text):
            let sql = "SELECT count(*) FROM (SELECT 1 FROM share_name_search WHERE share_name_search MATCH ? LIMIT ?)"
            return try count(sql, [ShareFilter.phrase(text), limit], db)
        }
    }

    /// The count a `SELECT count(*)` gives, its statement reset at once (its work is done and accounted for).
    private func count(_ sql: String, _ arguments: StatementArguments, _ db: Database) throws -> Int {
        var count = 0
        try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
            count = Int(row.integer(0))
            return false
        }
        return count
    }

    /// The first `limit + 1` of `matches` in the listing's order.
    static func first(_ matches: [(seq: Int64, key: SortKey)], _ listing: ShareListing) -> [Int64] {
        let ascending = listing.query.order == .asc
        let sorted = matches.sorted { ascending ? $0.key < $1.key : $1.key < $0.key }
        return sorted.prefix(listing.query.limit + 1).map(\.seq)
    }
}
