import Foundation
import GRDB
import ShareHistory
import ShareKit

/// Counts and bytes of the records a query matches: in total, per icon category, per local day.
struct SQLiteStatistics {
    let query: ShareQuery
    let owner: Int64
    let trigramCounts: TrigramCounts

    /// Far enough back that every instant since the year 0000, moved to local time, is positive.
    private static let dayBias: Int64 = 1_000_000

    /// The statistics `by` a period (nil: the one that fits their span): from the running totals when they hold
    /// every filter of the query, else from the records.
    func fetch(by period: StatsPeriod?, _ db: Database) throws -> ShareStats {
        if StatisticsFromTotals.canAnswer(query) { return try SQLiteTotalsStatistics(query: query, owner: owner).fetch(by: period, db) }
        return try fetchFromRecords(by: period, db)
    }

    /// The statistics `by` a period, from the records the query matches.
    func fetchFromRecords(by period: StatsPeriod?, _ db: Database) throws -> ShareStats {
        let name = try NameCondition(everyMatchOf: query, owner: owner, counts: trigramCounts, db)
        let filter = SQLiteFilter(query, owner: owner, name: name)
        // Apart: SQLite finds a min() or a max() at one end of an index, but not both in one query.
        let bound = { (aggregate: String) in
            try SQLRequest<Int64>(literal: "SELECT \(sql: aggregate)(created_at) FROM share WHERE \(filter.sql)").fetchOne(db)
        }
        guard let first = try bound("min"), let last = try bound("max") else {
            return ShareStats.empty(by: period)
        }
        let dayExpression = localDay(from: first, through: last)
        // Grouped here rather than by SQLite, which would sort every row by its day (seconds at a million).
        let table = try readsWholeTable(filter, name: name, db) ? "share NOT INDEXED" : "share"
        let (sql, arguments) = try SQL("SELECT type, \(dayExpression), size FROM \(sql: table) WHERE \(filter.sql)").build(db)
        var groups: [Group: Sums] = [:]
        try StatementColumns.forEachRow(of: try db.makeStatement(sql: sql), arguments: arguments) { row in
            groups[Group(type: String(decoding: row.text(0), as: UTF8.self), day: row.integer(1)), default: Sums()]
                .add(Sums(size: row.integer(2)))
            return true
        }
        let day = { (group: Group) in CalendarDay(daysSinceEpoch: group.day - Self.dayBias) }
        let days = groups.keys.map(day)
        guard let firstDay = days.min(), let lastDay = days.max() else {
            return ShareStats.empty(by: period)
        }
        let chosen = period ?? StatsPeriod.fitting(from: firstDay, through: lastDay)
        var tally = StatisticsTally()
        for (group, sums) in groups {
            tally.add(sums, type: group.type, period: chosen == .none ? 0 : chosen.firstDay(of: day(group)).daysSinceEpoch)
        }
        return tally.stats(by: chosen) { chosen.name(of: CalendarDay(daysSinceEpoch: $0)) }
    }

    /// Whether the table is better read whole, in its own order, than the matches an index names looked up one by
    /// one: each lookup costs about what reading ten rows of the table in order does (2.9 s against 0.24 s for a
    /// million, measured with sqlite3). So: with no filter an index holds, and when the filters match more than a
    /// tenth of the table, counted up to that tenth (cheap where an index holds every filter, and at most a tenth
    /// of the lookups otherwise). Text the trigram index finds, and the small trash, are left to SQLite.
    private func readsWholeTable(_ filter: SQLiteFilter, name: NameCondition?, _ db: Database) throws -> Bool {
        if query.trashed { return false }
        if case .fullText = name { return false }
        if query.types == nil && query.folder == nil && query.createdFrom == nil && query.createdBefore == nil { return true }
        let tenth = (try Int.fetchOne(db, sql: "SELECT max(seq) FROM share") ?? 0) / 10
        let counted = try SQLRequest<Int>(literal: "SELECT count(*) FROM (SELECT 1 FROM share WHERE \(filter.sql) LIMIT \(tenth))").fetchOne(db)
        return (counted ?? 0) >= tenth
    }

    /// `created_at` as a local day number (plus `dayBias`), with the zone's offsets between `first` and `last`.
    private func localDay(from first: Int64, through last: Int64) -> SQL {
        SQL(sql: query.zone.localDayExpression(of: "created_at", from: first, through: last, bias: Self.dayBias))
    }
}

/// The records of one icon category on one day.
private struct Group: Hashable {
    let type: String
    let day: Int64
}
