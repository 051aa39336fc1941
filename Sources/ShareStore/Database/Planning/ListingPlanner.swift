import GRDB
import ShareKit

/// Chooses, for one page, how to find its rows, so that SQLite works about as little as the better read would.
///
/// Where one index serves every filter and the order (a type by name, a day by time, several types merged),
/// that index is read. Otherwise two kinds of read compete: reading an index in the listing's order and testing
/// each row until a page passes (cheap when the filters are common), and reading every row of a filter's index
/// and sorting (cheap when the filter is rare). Which one wins is not guessed from statistics: the reads race,
/// each allowed a budget of SQLite's steps (`StepBudget`) that grows fourfold round by round, and the first to
/// finish within its budget gives the page. An ordered read resumes where the last round cut it; a step that
/// reads the table counts for more (`ListingRead.stepCost`). The work is a small multiple of what the winning
/// read alone costs.
struct ListingPlanner {
    let listing: ShareListing
    /// The steps each read may take in the first round.
    let firstBudget: Int

    init(_ listing: ShareListing, firstBudget: Int? = nil) {
        self.listing = listing
        // About what reading a page and one row in order costs when every row passes.
        self.firstBudget = firstBudget ?? 40 * (listing.query.limit + 1)
    }

    var query: ShareQuery { listing.query }

    /// Where the page comes from: the statement of the read that won, ready to be written as a page.
    func statement(_ db: Database) throws -> (String, StatementArguments) {
        if query.trashed {
            // The trash is small (purged after `trash_days`) and has an index of its own: read whole and sorted.
            return listing.statement(name: try NameCondition(everyMatchOf: query.nameContains, counts: listing.trigramCounts, db))
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
        // The rows the trigram index named are few (`candidateLimit` at most) and known already: read them.
        if let named { return listing.statement(among: named) }
        return listing.statement(among: try race(scans, others, db))
    }

    /// The page's rows, from the first read to finish within its budget.
    private func race(_ scans: [OrderedScan], _ others: [ListingRead], _ db: Database) throws -> [Int64] {
        var scans = scans
        var budget = firstBudget
        var allowed = 0
        if scans.count == 1 {
            // Alone until another read may run, an ordered read needs no marks (a fifth more work a row): cut when
            // the other joins, it resumes after its last match instead.
            while !others.isEmpty && !others.contains(where: { mayRun($0, budget) }) { budget *= 4 }
            let steps = others.isEmpty ? nil : budget / scans[0].stepCost
            if try scans[0].advance(steps: steps, marks: false, listing, db) { return scans[0].page(listing) }
            allowed = budget
        }
        while true {
            // An ordered read resumes where it was cut, with what the round adds; any other read starts again.
            for index in scans.indices where budget > allowed {
                let steps = (budget - allowed) / scans[index].stepCost
                if try scans[index].advance(steps: steps, listing, db) { return scans[index].page(listing) }
            }
            for read in others where mayRun(read, budget) {
                if let rows = try StepBudget.run(db, steps: budget / read.stepCost, { try page(of: read, db) }) { return rows }
            }
            // Every ordered read ends when its index's rows do, so the race always ends.
            allowed = budget
            budget *= 4
        }
    }

    /// Whether a round of `budget` steps gives `read` at least the steps it takes before its first row.
    private func mayRun(_ read: ListingRead, _ budget: Int) -> Bool {
        budget / read.stepCost >= minimumSteps(of: read)
    }

    /// Steps a read takes at the least, before its first row: the trigram index answers a text whose trigrams are
    /// all common (no candidates were named) only after reading every one's list of names, each longer than
    /// `candidateLimit`, in one step SQLite cannot cut short. Shorter text is read a trigram at a time.
    private func minimumSteps(of read: ListingRead) -> Int {
        guard case .fullText(let text) = read else { return 0 }
        return 40 * listing.candidateLimit * NameIndex.keys(of: text).filter(NameIndex.isTrigram).count
    }

    /// Every read that can answer the page, the ordered ones first.
    func reads(_ db: Database) throws -> [ListingRead] {
        var reads = orderedReads().map(ListingRead.ordered) + unorderedReads().map(ListingRead.unordered)
        if let text = query.nameContains, !text.isEmpty {
            if let rows = try listing.trigramCounts.candidates(for: text, limit: listing.candidateLimit, db) {
                reads.append(.candidates(rows))
            }
            reads.append(.fullText(text))
        }
        return reads
    }

    /// The statement of the page from `read`, read in full.
    func statement(of read: ListingRead, _ db: Database) throws -> (String, StatementArguments) {
        if case .ordered(let indexRead) = read, indexRead.seeks.count == 1, indexRead.answersEveryFilter {
            return listing.statement(name: nil, index: indexRead.index)
        }
        return listing.statement(among: try page(of: read, db))
    }

    /// The rows (`seq`) of the page, as `read` finds them.
    private func page(of read: ListingRead, _ db: Database) throws -> [Int64] {
        switch read {
        case .ordered(let indexRead):
            var scan = OrderedScan(indexRead)
            _ = try scan.advance(steps: nil, listing, db)
            return scan.page(listing)
        case .unordered(let indexRead):
            var matches: [(seq: Int64, key: SortKey)] = []
            for seek in indexRead.seeks { matches += try Self.keyedRows(indexRead.matches(seek, listing), listing, db) }
            return Self.first(matches, listing)
        case .candidates(let rows):
            return try Self.keyedRows(listing.keyedRows(among: rows), listing, db).map(\.seq)
        case .fullText(let text):
            return try Self.keyedRows(listing.keyedRows(matching: text), listing, db).map(\.seq)
        }
    }

    /// The rows of a statement selecting `seq`, the sort's column and the id, with their sort keys.
    static func keyedRows(
        _ statement: (String, StatementArguments), _ listing: ShareListing, _ db: Database
    ) throws -> [(
        seq: Int64, key: SortKey
    )] {
        let (sql, arguments) = statement
        var rows: [(seq: Int64, key: SortKey)] = []
        try StatementColumns.forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments) { row in
            rows.append((row.integer(0), SortKey(row, sort: listing.query.sort, column: 1)))
            return true
        }
        return rows
    }

    /// The first `limit + 1` of `matches` in the listing's order.
    static func first(_ matches: [(seq: Int64, key: SortKey)], _ listing: ShareListing) -> [Int64] {
        let ascending = listing.query.order == .asc
        let sorted = matches.sorted { ascending ? $0.key < $1.key : $1.key < $0.key }
        return sorted.prefix(listing.query.limit + 1).map(\.seq)
    }
}
