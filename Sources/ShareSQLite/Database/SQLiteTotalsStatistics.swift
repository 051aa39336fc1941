import GRDB
import ShareHistory
import ShareKit

/// Statistics from SQLite's running totals (`share_total_month` per UTC month, `share_total` per UTC day,
/// `share_total_quarter` per UTC quarter hour, kept by triggers with every change), added up as `TotalsPlan` says.
struct SQLiteTotalsStatistics {
    let query: ShareQuery
    let owner: Int64

    /// The statistics `by` a period (nil: the one that fits their span).
    func fetch(by period: StatsPeriod?, _ db: Database) throws -> ShareStats {
        let plan = StatisticsFromTotals(query)
        guard let (firstDay, lastDay) = try dayRange(plan, db) else { return ShareStats.empty(by: period) }
        var matched: (first: Int64, last: Int64)?
        if period == nil {
            guard let span = try matchedSpan(plan, from: firstDay, through: lastDay, db) else { return ShareStats.empty(by: nil) }
            matched = span
        }
        let answer = plan.plan(by: period, matched: matched, months: try months(from: firstDay, through: lastDay, db))
        return answer.stats(
            reading: try answer.reads.map { read in
                switch read.grain {
                case .days: try sums(in: "share_total", unit: "day", read.numbers, db)
                case .quarterHours: try sums(in: "share_total_quarter", unit: "quarter", read.numbers, db)
                case .records: try sums(of: SQLiteFilter(answer.query(over: read), owner: owner, name: nil), db)
                }
            })
    }

    /// The conditions on the totals' owner, trash state and types, with their arguments.
    private func totalsConditions() -> (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions = ["owner = ?", "trashed = ?"]
        var arguments: [any DatabaseValueConvertible] = [owner, query.trashed]
        if let types = query.types {
            conditions.append("type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        return (conditions, arguments)
    }

    /// The rows of the monthly totals of the months from `firstDay`'s through `lastDay`'s (each `day` the month's
    /// first day).
    private func months(from firstDay: Int64, through lastDay: Int64, _ db: Database) throws -> [TotalsRow] {
        var (conditions, arguments) = totalsConditions()
        conditions += ["month >= ?", "month <= ?"]
        arguments += [StatisticsFromTotals.firstOfMonth(firstDay), lastDay]
        let statement = try db.cachedStatement(
            sql: "SELECT month, type, count, bytes_high, bytes_low FROM share_total_month WHERE \(conditions.joined(separator: " AND "))")
        var rows: [TotalsRow] = []
        try StatementColumns.forEachRow(of: statement, arguments: StatementArguments(arguments)) { row in
            let sums = Sums(count: Int(row.integer(2)), high: row.integer(3), low: row.integer(4))
            rows.append(TotalsRow(day: row.integer(0), category: Self.category(row.text(1)), sums: sums))
            return true
        }
        return rows
    }

    /// The count and bytes per category of the rows of the totals in `table` whose `unit` is one of `numbers`: added
    /// up here, as the rows come in key order, rather than grouped by SQLite, which would sort them by type first.
    private func sums(in table: String, unit: String, _ numbers: Range<Int64>, _ db: Database) throws -> CategorySums {
        var (conditions, arguments) = totalsConditions()
        conditions += ["\(unit) >= ?", "\(unit) < ?"]
        arguments += [numbers.lowerBound, numbers.upperBound]
        let statement = try db.cachedStatement(
            sql: "SELECT type, count, bytes_high, bytes_low FROM \(table) WHERE \(conditions.joined(separator: " AND "))")
        var sums = CategorySums()
        try StatementColumns.forEachRow(of: statement, arguments: StatementArguments(arguments)) { row in
            sums[Self.category(row.text(0))].add(Sums(count: Int(row.integer(1)), high: row.integer(2), low: row.integer(3)))
            return true
        }
        return sums
    }

    /// The first and the last UTC day the totals hold a matching record on, within the window's days.
    private func dayRange(_ plan: StatisticsFromTotals, _ db: Database) throws -> (Int64, Int64)? {
        var (conditions, arguments) = totalsConditions()
        if let first = plan.dayBounds.first {
            conditions.append("day >= ?")
            arguments.append(first)
        }
        if let last = plan.dayBounds.last {
            conditions.append("day <= ?")
            arguments.append(last)
        }
        // Apart, each an ordered read that stops at its first row: SQLite finds one end of an index, not both.
        let end = { (order: String) in
            try Int64.fetchOne(
                db, sql: "SELECT day FROM share_total WHERE \(conditions.joined(separator: " AND ")) ORDER BY day \(order) LIMIT 1",
                arguments: StatementArguments(arguments))
        }
        guard let first = try end("ASC"), let last = try end("DESC") else { return nil }
        return (first, last)
    }

    /// The number of the category named by `text` in `IconCategory.allCases`, compared as bytes (no string made).
    private static func category(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        categoryNames.firstIndex { $0.elementsEqual(text) } ?? categoryNames.count - 1
    }

    private static let categoryNames = IconCategory.allCases.map { Array($0.rawValue.utf8) }

    /// The creation times of the first and the last record the query matches, looked for where the plan says.
    private func matchedSpan(
        _ plan: StatisticsFromTotals, from firstDay: Int64, through lastDay: Int64, _ db: Database
    ) throws -> (
        first: Int64, last: Int64
    )? {
        func bound(_ aggregate: String, in day: Int64) throws -> Int64? {
            for search in plan.spanSearches(inDay: day) {
                let sql: SQL = "SELECT \(sql: aggregate)(created_at) FROM share WHERE \(SQLiteFilter(search, owner: owner, name: nil).sql)"
                if let found = try SQLRequest<Int64>(literal: sql, cached: true).fetchOne(db) { return found }
            }
            return nil
        }
        guard let first = try bound("min", in: firstDay), let last = try bound("max", in: lastDay) else { return nil }
        return (first, last)
    }

    /// The count and bytes per category of the records `filter` matches.
    private func sums(of filter: SQLiteFilter, _ db: Database) throws -> CategorySums {
        var sums = CategorySums()
        try StatementColumns.forEachRow(of: "SELECT type, size FROM share WHERE \(filter.sql)", db) { row in
            sums[Self.category(row.text(0))].add(Sums(size: row.integer(1)))
            return true
        }
        return sums
    }
}
