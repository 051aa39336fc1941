import GRDB
import ShareHistory
import ShareKit

/// Chooses, for one page, how to find its rows, so that SQLite works about as little as the better read would.
///
/// Where one index serves every filter and the order (a type by name, a day by time, several types merged),
/// that index is read. Otherwise two kinds of read compete: reading an index in the listing's order and testing
/// each row until a page passes (cheap when the filters are common), and reading every row a filter's index (or
/// the trigram index) names and sorting (cheap when the filter is rare). Which one wins is not guessed from
/// statistics: the reads race in rounds of work (`WorkBudget`) growing fourfold (`race`). The work is a small
/// multiple of what the better read alone costs; a race that runs long gives its ordered reads to a second reader
/// (`SideRead`). docs/planner.md tells the whole.
struct ListingPlanner: Sendable {
    let listing: SQLiteListing
    /// The work each read may do in the first round.
    let firstBudget: Int

    init(_ listing: SQLiteListing, firstBudget: Int? = nil) {
        self.listing = listing
        // About what reading a page and one row in order costs when every row passes.
        self.firstBudget = firstBudget ?? 40 * (listing.query.limit + 1)
    }

    var query: ShareQuery { listing.query }
    var owner: Int64 { listing.owner }

    /// Where the page comes from: the statement of the read that won, ready to be written as a page.
    func statement(_ db: Database) throws -> SQL {
        if query.trashed {
            // The trash is small (purged after `trash_days`) and has an index of its own: read whole and sorted.
            return listing.statement(name: try NameCondition(everyMatchOf: query, owner: owner, counts: listing.trigramCounts, db))
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

    /// From rounds of this much on, a read of every match whose rows the running totals count (`RowTotals`) runs only
    /// in a round its rows fit, as counted there (a millisecond or two), rather than being tried or counted in its
    /// index in every round before.
    static let totalsWork = 250_000

    /// The page's rows, from the first read to finish: in `rounds`, on this connection, or on the listing's second
    /// reader that took the ordered reads, which stops the rounds where they are when it has the page first. A read
    /// whose whole work is limited (the quick lane's: `ReadLanes`) may be cut short, and takes no second reader; one
    /// that is not (the heavy lane's, which the quick lane found long) takes it from its first round.
    func race(_ scans: [OrderedScan], _ others: [ListingRead], _ db: Database) throws -> [Int64] {
        guard !others.isEmpty, let second = listing.secondReader, !WorkBudget.isLimited(db) else {
            return try rounds(scans, others, beside: nil, db)
        }
        let side = SideRead(self, on: second, version: try HistoryVersion.stored(db))
        defer { side.stop() }
        return try WorkBudget.run(db, work: nil, endingWhen: { side.hasPage }, { try rounds(scans, others, beside: side, db) }) ?? side.page
    }

    /// The page's rows, from the first read to finish within its budget. Round by round, the budget grows fourfold:
    /// a read of every match whose rows come from its index alone is tried with the round's budget; one that looks
    /// its rows up elsewhere runs once its rows, counted in the index, show it fits the round (`fitting`). Then the
    /// ordered reads go on for as much, unless `side` reads them. Until another read may run, they have the rounds
    /// to themselves, in one.
    private func rounds(_ scans: [OrderedScan], _ others: [ListingRead], beside side: SideRead?, _ db: Database) throws -> [Int64] {
        var scans = scans
        var counts = RowCounts()
        var budget = firstBudget
        var orderedAhead = false
        while !others.isEmpty && !others.contains(where: { mayRun($0, budget) }) {
            budget *= 4
            orderedAhead = true
        }
        while true {
            // Alone, an ordered read runs to its end.
            let work = others.isEmpty && scans.count == 1 ? nil : budget
            // Where the second reader gave up, the ordered reads go on from where they were when it took them.
            let ordered = side?.reads(scans) != true
            if ordered, orderedAhead, let rows = try advance(&scans, work: work, db) { return rows }
            if let rows = try firstToFit(others, within: budget, &counts, db) { return rows }
            if ordered, !orderedAhead, let rows = try advance(&scans, work: work, db) { return rows }
            orderedAhead = false
            budget *= 4
        }
    }

    /// The page's rows from the first of `others` to finish within `budget`.
    private func firstToFit(_ others: [ListingRead], within budget: Int, _ counts: inout RowCounts, _ db: Database) throws -> [Int64]? {
        for read in others {
            if case .unordered(let indexRead) = read, budget >= Self.totalsWork, let rows = try counts.totals(of: indexRead, db),
                rows * read.rowWork > budget
            {
                continue
            }
            if read.rowWork <= IndexRead.indexRowWork {
                // Counting its rows would cost what reading them does: it is tried instead.
                if let rows = try WorkBudget.run(db, work: budget, { try page(of: read, db) }) { return rows }
                continue
            }
            guard let fitting = try fitting(read, within: budget, &counts, db) else { continue }
            if case .unordered(let indexRead) = fitting, indexRead.amongNamed {
                // Its count left out what taking the names costs, which a common text makes dear: it runs within a
                // quarter of the budget.
                if let rows = try WorkBudget.run(db, work: budget / 4, { try page(of: fitting, db) }) { return rows }
            } else {
                return try page(of: fitting, db)
            }
        }
        return nil
    }

    /// The page's rows once an ordered read has gone on for `work` more (nil: to its end) and found them. Each
    /// resumes where the round before cut it, and ends when its index's rows do, so the race always ends.
    private func advance(_ scans: inout [OrderedScan], work: Int?, _ db: Database) throws -> [Int64]? {
        for index in scans.indices {
            if try scans[index].advance(work: work, listing, db) { return scans[index].page(listing) }
        }
        return nil
    }

    /// `read`, when reading every one of its rows takes at most about `budget`: its rows counted in the index alone
    /// (about 15 of work a row, a sixth or less of looking one up), only as far as the budget allows, and once a round
    /// for the two reads of one index (`counts`), unless the running totals counted them. The rows the trigram index
    /// names are taken rather than counted: the read goes on from them (for a text of one or two characters, after
    /// reading as many of the index's entries as the budget would count rows). Once all are taken, they are kept for
    /// the rounds after.
    private func fitting(_ read: ListingRead, within budget: Int, _ counts: inout RowCounts, _ db: Database) throws -> ListingRead? {
        guard mayRun(read, budget) else { return nil }
        let allowed = budget / read.rowWork
        switch read {
        case .fullText(let words):
            let entries = budget / IndexRead.indexRowWork
            counts.named = try counts.named ?? NameIndex.rows(holding: words, owner: owner, upTo: allowed, readingAtMost: entries, db)
            guard let named = counts.named, named.count <= allowed else { return nil }
            return .candidates(named)
        case .unordered(let indexRead):
            return try counts.rows(of: indexRead, upTo: allowed + 1, db) > allowed ? nil : read
        case .ordered, .candidates:
            return nil
        }
    }

    /// Whether a round of `budget` lets `read` run: a row's work, and its minimum.
    private func mayRun(_ read: ListingRead, _ budget: Int) -> Bool {
        budget >= max(read.rowWork, minimumWork(of: read))
    }

    /// Work a read takes at the least, before its first row: the trigram index answers a text whose trigrams are
    /// all common (no candidates were named) only after reading every one's list of names, each longer than
    /// `candidateLimit`, in one step SQLite cannot cut short. Shorter text is read a trigram at a time.
    private func minimumWork(of read: ListingRead) -> Int {
        guard case .fullText(let words) = read else { return 0 }
        return 40 * listing.candidateLimit * NameIndex.keys(of: words).filter(NameIndex.isTrigram).count
    }

    /// Every read that can answer the page, the ordered ones first.
    func reads(_ db: Database) throws -> [ListingRead] {
        var reads = orderedReads().map(ListingRead.ordered) + unorderedReads().map(ListingRead.unordered)
        if !query.nameWords.isEmpty {
            if let rows = try listing.trigramCounts.candidates(for: query.nameWords, owner: owner, limit: listing.candidateLimit, db) {
                reads.append(.candidates(rows))
            }
            reads.append(.fullText(query.nameWords))
        }
        return reads
    }

    /// The statement of the page from `read`, read in full.
    func statement(of read: ListingRead, _ db: Database) throws -> SQL {
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
            _ = try scan.advance(work: nil, listing, db)
            return scan.page(listing)
        case .unordered(let indexRead):
            var matches: [(seq: Int64, key: SortKey)] = []
            for seek in indexRead.seeks { matches += try Self.keyedRows(indexRead.matches(seek, listing), listing, db) }
            return Self.first(matches, listing)
        case .candidates(let rows):
            return try Self.keyedRows(listing.keyedRows(among: rows), listing, db).map(\.seq)
        case .fullText(let words):
            return try Self.keyedRows(listing.keyedRows(matching: words), listing, db).map(\.seq)
        }
    }

    /// The rows of a statement selecting `seq`, the sort's column and the id, with their sort keys.
    static func keyedRows(_ statement: SQL, _ listing: SQLiteListing, _ db: Database) throws -> [(seq: Int64, key: SortKey)] {
        var rows: [(seq: Int64, key: SortKey)] = []
        try StatementColumns.forEachRow(of: statement, db) { row in
            rows.append((row.integer(0), SortKey(row, sort: listing.query.sort, column: 1)))
            return true
        }
        return rows
    }

    /// The first `limit + 1` of `matches` in the listing's order.
    static func first(_ matches: [(seq: Int64, key: SortKey)], _ listing: SQLiteListing) -> [Int64] {
        let ascending = listing.query.order == .asc
        let sorted = matches.sorted { ascending ? $0.key < $1.key : $1.key < $0.key }
        return sorted.prefix(listing.query.limit + 1).map(\.seq)
    }
}

/// The rows of reads of every match, counted in their indexes or in the running totals during a race (a read of an
/// index among the trigram index's names, and the same index's read of every row, share one count), and the named
/// rows.
private struct RowCounts {
    /// By index: the rows counted, and the limit they were counted up to.
    private var counted: [String: (rows: Int, limit: Int)] = [:]
    /// By index: the rows the running totals hold.
    private var totals: [String: Int] = [:]
    /// Every row the trigram index names for the text, once taken.
    var named: [Int64]?

    /// The rows of `read`'s seeks as the running totals count them (nil: they cannot), asked once a race.
    mutating func totals(of read: IndexRead, _ db: Database) throws -> Int? {
        if let known = totals[read.index] { return known }
        guard let source = read.totals else { return nil }
        let rows = try source.rows(db)
        totals[read.index] = rows
        return rows
    }

    /// The rows of `read`'s seeks, each counted up to `limit`, or all of them if the running totals counted them.
    mutating func rows(of read: IndexRead, upTo limit: Int, _ db: Database) throws -> Int {
        if let total = totals[read.index] { return total }
        if let known = counted[read.index], known.limit >= limit || known.rows < known.limit { return known.rows }
        var rows = 0
        for seek in read.seeks {
            rows += try SQLRequest<Int>(literal: read.countingRows(seek, upTo: limit), cached: true).fetchOne(db) ?? 0
            if rows >= limit { break }
        }
        counted[read.index] = (rows, limit)
        return rows
    }
}
