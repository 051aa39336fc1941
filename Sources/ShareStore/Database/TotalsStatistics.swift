import GRDB
import ShareKit

/// Statistics added up from the running totals (the count and bytes of each owner, trash state, type and UTC day
/// in `share_total`, or UTC month in `share_total_month`, kept by triggers with every change) rather than from
/// every record.
///
/// Months answer when no boundary of the answer falls inside one (no periods, or the zone's months are UTC's, and
/// the window is whole months). Otherwise a UTC day that lies wholly inside one period of the answer (a local day, month or year, within the query's
/// window) counts whole. A day that a boundary cuts (a local midnight that is not one in UTC, as 05:00Z is in
/// New York and 18:30Z in Kolkata, or a `from`/`to` time) is split at its boundaries: the records of every part
/// but the longest are read through the creation-time index, and the longest part is the day's total less them.
/// A cut day therefore costs the records of at most half a day, an uncut one none. Periods are worked out only
/// for the days the totals hold, so a history spread over centuries costs no more than its rows.
struct TotalsStatistics {
    let query: ShareQuery

    /// Whether the totals hold every filter of `query`: all but the text and a folder.
    static func canAnswer(_ query: ShareQuery) -> Bool {
        query.nameContains == nil && (query.folder == nil || (query.folder == FolderPath.root && query.recursive))
    }

    private static let dayLength = Timestamp.millisecondsPerDay
    /// As in the totals' `day`: the bias makes the division round down before 1970 too.
    private static let dayBias: Int64 = 1_000_000

    /// The statistics `by` a period (nil: the one that fits their span); nil when reading the matching records
    /// costs less than the records of the cut days would (a short period in a zone away from UTC over years),
    /// unless `evenIfRecordsCostLess`.
    func fetch(by period: StatsPeriod?, evenIfRecordsCostLess: Bool = false, _ db: Database) throws -> ShareStats? {
        let window = Window(query)
        guard let (firstDay, lastDay) = try dayRange(window, db) else {
            return ShareStats(count: 0, bytes: 0, types: [:], by: period ?? .day, periods: [])
        }
        let zone = ZoneSpan(query.zone, from: (firstDay - 2) * Self.dayLength, through: (lastDay + 3) * Self.dayLength)
        let chosen: StatsPeriod
        if let period {
            chosen = period
        } else {
            guard let (first, last) = try matchedSpan(from: firstDay, through: lastDay, window, db) else {
                return ShareStats(count: 0, bytes: 0, types: [:], by: .day, periods: [])
            }
            chosen = StatsPeriod.fitting(from: zone.day(of: first), through: zone.day(of: last))
        }
        var cells: [Cell: Sums] = [:]
        if window.isWholeMonths && (chosen == .none || (chosen != .day && zone.isUTC)) {
            for row in try totals(in: window, perMonth: true, from: firstDay, through: lastDay, db) {
                let period = chosen == .none ? 0 : chosen.firstDay(of: CalendarDay(daysSinceEpoch: row.day)).daysSinceEpoch
                cells[Cell(category: row.category, period: period), default: Sums()].add(row.sums)
            }
        } else {
            let periods = Periods(period: chosen, zone: zone, window: window)
            let rows = try totals(in: window, perMonth: false, from: firstDay, through: lastDay, db)
            guard try addDays(rows, periods, window, to: &cells, evenIfRecordsCostLess: evenIfRecordsCostLess, db) else { return nil }
        }
        var tally = StatisticsTally()
        for (cell, sums) in cells { tally.add(sums, type: IconCategory.allCases[cell.category].rawValue, period: cell.period) }
        return tally.stats(by: chosen) { chosen.name(of: CalendarDay(daysSinceEpoch: $0)) }
    }

    /// Adds the days' rows to `cells`, each whole day to its period and each cut one part by part; false, adding
    /// nothing, when the records of the cut days' parts would cost more than reading every matching record (a
    /// record looked up through an index costs about ten read in order, as `ShareStatistics` measured).
    private func addDays(
        _ rows: [Row], _ periods: Periods, _ window: Window, to cells: inout [Cell: Sums], evenIfRecordsCostLess: Bool,
        _ db: Database
    ) throws -> Bool {
        var layouts: [Int64: DayLayout] = [:]
        var cutDays: [Int64: [Int: Sums]] = [:]
        var whole: [Cell: Sums] = [:]
        for row in rows {
            let layout = layouts[row.day] ?? periods.layout(ofDay: row.day)
            layouts[row.day] = layout
            switch layout {
            case .whole(let period?): whole[Cell(category: row.category, period: period), default: Sums()].add(row.sums)
            case .whole(nil): break
            case .cut: cutDays[row.day, default: [:]][row.category, default: Sums()].add(row.sums)
            }
        }
        let looksUp = cutDays.reduce(0) { sum, day in
            guard case .cut(let parts) = layouts[day.key] else { return sum }
            let share = Double(Self.dayLength - parts.map(\.length).max()!) / Double(Self.dayLength)
            return sum + Double(day.value.values.reduce(0) { $0 + $1.count }) * share
        }
        guard evenIfRecordsCostLess || looksUp * 10 <= Double(rows.reduce(0) { $0 + $1.sums.count }) else { return false }
        cells = whole
        for (day, totals) in cutDays {
            guard case .cut(let parts) = layouts[day] else { continue }
            // Every part but the longest is read from the records; the longest is what the day's totals leave.
            let longest = parts.indices.max { parts[$0].length < parts[$1].length }!
            var rest = totals
            for (index, part) in parts.enumerated() where index != longest {
                try forEachRecord(in: window, from: part.from, before: part.before, db) { category, sums in
                    rest[category, default: Sums()].subtract(sums)
                    if let period = part.period { cells[Cell(category: category, period: period), default: Sums()].add(sums) }
                }
            }
            guard let period = parts[longest].period else { continue }
            for (category, sums) in rest { cells[Cell(category: category, period: period), default: Sums()].add(sums) }
        }
        return true
    }

    /// A row of the totals: a day, the number of a category in `IconCategory.allCases`, its count and bytes.
    private struct Row {
        let day: Int64
        let category: Int
        let sums: Sums
    }

    /// A category in a period (numbered by the period's first day, in days since 1970).
    private struct Cell: Hashable {
        let category: Int
        let period: Int64
    }

    /// The rows of the totals from `firstDay` through `lastDay`: per day, or per month (`day` then being the
    /// month's first day).
    private func totals(in window: Window, perMonth: Bool, from firstDay: Int64, through lastDay: Int64, _ db: Database) throws -> [Row] {
        let (table, unit) = perMonth ? ("share_total_month", "month") : ("share_total", "day")
        var conditions = ["owner = ?", "trashed = ?", "\(unit) >= ?", "\(unit) <= ?"]
        var arguments: [any DatabaseValueConvertible] = [query.owner, query.trashed, perMonth ? Self.firstOfMonth(firstDay) : firstDay, lastDay]
        if let types = query.types {
            conditions.append("type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        let statement = try db.cachedStatement(
            sql: "SELECT \(unit), type, count, bytes_high, bytes_low FROM \(table) WHERE \(conditions.joined(separator: " AND "))")
        var rows: [Row] = []
        try StatementColumns.forEachRow(of: statement, arguments: StatementArguments(arguments)) { row in
            let sums = Sums(count: Int(row.integer(2)), high: row.integer(3), low: row.integer(4))
            rows.append(Row(day: row.integer(0), category: Self.category(row.text(1)), sums: sums))
            return true
        }
        return rows
    }

    /// The first and the last UTC day the totals hold a matching record on, within the window's days.
    private func dayRange(_ window: Window, _ db: Database) throws -> (Int64, Int64)? {
        var conditions = ["owner = ?", "trashed = ?"]
        var arguments: [any DatabaseValueConvertible] = [query.owner, query.trashed]
        if let types = query.types {
            conditions.append("type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        if window.from != .min {
            conditions.append("day >= ?")
            arguments.append(Self.utcDay(of: window.from))
        }
        if window.before != .max {
            conditions.append("day <= ?")
            arguments.append(Self.utcDay(of: window.before - 1))
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

    /// The first day of the UTC month that holds `day`.
    private static func firstOfMonth(_ day: Int64) -> Int64 {
        StatsPeriod.month.firstDay(of: CalendarDay(daysSinceEpoch: day)).daysSinceEpoch
    }

    /// The number of the category named by `text` in `IconCategory.allCases`, compared as bytes (no string made).
    private static func category(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        categoryNames.firstIndex { $0.elementsEqual(text) } ?? categoryNames.count - 1
    }

    private static let categoryNames = IconCategory.allCases.map { Array($0.rawValue.utf8) }

    /// The creation times of the first and the last record the query matches: looked for in the first and the
    /// last day the totals hold, and in the whole window when the window's ends leave such a day empty.
    private func matchedSpan(from firstDay: Int64, through lastDay: Int64, _ window: Window, _ db: Database) throws -> (Int64, Int64)? {
        func bound(_ aggregate: String, in day: Int64) throws -> Int64? {
            for (from, before) in [(day * Self.dayLength, (day + 1) * Self.dayLength), (Int64.min, Int64.max)] {
                guard let filter = window.filter(from: from, before: before) else { continue }
                let sql: SQL = "SELECT \(sql: aggregate)(created_at) FROM share WHERE \(filter.sql)"
                if let found = try SQLRequest<Int64>(literal: sql, cached: true).fetchOne(db) { return found }
            }
            return nil
        }
        guard let first = try bound("min", in: firstDay), let last = try bound("max", in: lastDay) else { return nil }
        return (first, last)
    }

    /// Hands each record the query matches from `start` to `end` (exclusive) to `body`.
    private func forEachRecord(
        in window: Window, from start: Int64, before end: Int64, _ db: Database, _ body: (Int, Sums) -> Void
    ) throws {
        guard let filter = window.filter(from: start, before: end) else { return }
        try StatementColumns.forEachRow(of: "SELECT type, size FROM share WHERE \(filter.sql)", db) { row in
            body(Self.category(row.text(0)), Sums(size: row.integer(1)))
            return true
        }
    }

    /// The UTC day number of an instant, as the totals' `day` has it.
    private static func utcDay(of milliseconds: Int64) -> Int64 {
        (milliseconds + dayBias * dayLength) / dayLength - dayBias
    }
}

/// The query's `createdAt` window: `from` inclusive, `before` exclusive, unbounded where it names no bound.
private struct Window {
    let query: ShareQuery
    let from: Int64
    let before: Int64

    init(_ query: ShareQuery) {
        self.query = query
        from = query.createdFrom?.millisecondsSinceEpoch ?? .min
        before = query.createdBefore?.millisecondsSinceEpoch ?? .max
    }

    func contains(_ instant: Int64) -> Bool {
        from <= instant && instant < before
    }

    /// Whether each end is open or the start of a UTC month: the window is then made of whole months.
    var isWholeMonths: Bool {
        [from, before].allSatisfy { end in
            if end == .min || end == .max { return true }
            let (day, rest) = end.quotientAndRemainder(dividingBy: Timestamp.millisecondsPerDay)
            return rest == 0 && CalendarDay(daysSinceEpoch: day).day == 1
        }
    }

    /// The query's filter, narrowed to the instants from `start` to `end` (exclusive); nil when nothing of the
    /// window is left. One range, not two: SQLite bounds an index's range by one condition on each side.
    func filter(from start: Int64, before end: Int64) -> ShareFilter? {
        let (lower, upper) = (max(from, start), min(before, end))
        guard lower < upper else { return nil }
        var part = query
        part.createdFrom = lower == .min ? nil : Timestamp(millisecondsSinceEpoch: lower)
        part.createdBefore = upper == .max ? nil : Timestamp(millisecondsSinceEpoch: upper)
        return ShareFilter(part, name: nil)
    }
}

/// How a UTC day falls into the answer's periods: wholly in one (nil: outside the window), or cut into parts.
private enum DayLayout {
    case whole(Int64?)
    case cut([DayPart])
}

/// The instants of a cut day from `from` to `before` (exclusive), all in one period (nil: outside the window).
private struct DayPart {
    let from: Int64
    let before: Int64
    let period: Int64?

    var length: Int64 { before - from }
}

/// The answer's periods in the zone, each numbered by its first local day (days since 1970).
private struct Periods {
    let period: StatsPeriod
    let zone: ZoneSpan
    let window: Window

    /// The number of the period that holds `instant`.
    func number(at instant: Int64) -> Int64 {
        period == .none ? 0 : period.firstDay(of: zone.day(of: instant)).daysSinceEpoch
    }

    /// Where the UTC day `day` falls: the starts of periods inside it and the window's ends inside it cut it.
    func layout(ofDay day: Int64) -> DayLayout {
        let (start, end) = (day * Timestamp.millisecondsPerDay, (day + 1) * Timestamp.millisecondsPerDay)
        var cuts = [window.from, window.before].filter { start < $0 && $0 < end }
        if period != .none {
            var first = period.firstDay(of: zone.day(of: start))
            let last = period.firstDay(of: zone.day(of: end - 1))
            while first < last {
                first = period.firstDay(after: first)
                let instant = zone.start(of: first)
                if start < instant && instant < end { cuts.append(instant) }
            }
        }
        guard !cuts.isEmpty else { return .whole(window.contains(start) ? number(at: start) : nil) }
        let bounds = [start] + Set(cuts).sorted() + [end]
        return .cut(zip(bounds, bounds.dropFirst()).map { DayPart(from: $0, before: $1, period: window.contains($0) ? number(at: $0) : nil) })
    }
}
