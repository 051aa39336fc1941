import GRDB
import ShareKit

/// Statistics added up from the running totals (`share_total`: the count and bytes of each owner, trash state,
/// type and UTC day, kept by triggers with every change) rather than from every record.
///
/// A UTC day that lies wholly inside one period of the answer (a local day, month or year, within the query's
/// window) counts whole. A day that a boundary cuts (a local midnight that is not one in UTC, as 05:00Z is in
/// New York and 18:30Z in Kolkata, or a `from`/`to` time) is split at its boundaries: the records of every part
/// but the longest are read through the creation-time index, and the longest part is the day's total less them.
/// A cut day therefore costs the records of at most half a day, an uncut one none.
struct TotalsStatistics {
    let query: ShareQuery

    /// Whether the totals hold every filter of `query`: all but the text and a folder.
    static func canAnswer(_ query: ShareQuery) -> Bool {
        query.nameContains == nil && (query.folder == nil || (query.folder == FolderPath.root && query.recursive))
    }

    private static let dayLength = Timestamp.millisecondsPerDay
    /// As in the totals' `day`: the bias makes the division round down before 1970 too.
    private static let dayBias: Int64 = 1_000_000

    func fetch(by period: StatsPeriod?, _ db: Database) throws -> ShareStats {
        let window = Window(query)
        let rows = try totals(in: window, db)
        guard let (first, last) = try matchedSpan(Set(rows.map(\.day)).sorted(), window, db) else {
            return ShareStats(count: 0, bytes: 0, types: [:], by: period ?? .day, periods: [])
        }
        let firstDay = query.zone.day(of: Timestamp(millisecondsSinceEpoch: first))
        let lastDay = query.zone.day(of: Timestamp(millisecondsSinceEpoch: last))
        let chosen = period ?? StatsPeriod.fitting(from: firstDay, through: lastDay)
        let periods = Periods(chosen, from: firstDay, through: lastDay, zone: query.zone)
        let cuts = Cuts(periods.starts, window)

        var tally = StatisticsTally()
        var cutDays: [Int64: [String: Sums]] = [:]
        for row in rows {
            let start = row.day * Self.dayLength
            if cuts.anyInside(start, start + Self.dayLength) {
                cutDays[row.day, default: [:]][row.type, default: Sums()].add(row.sums)
            } else if window.contains(start) {
                tally.add(row.sums, type: row.type, period: periods.index(of: start))
            }
        }
        for (day, totals) in cutDays {
            try addParts(of: day, totals: totals, cuts: cuts, periods: periods, window: window, to: &tally, db)
        }
        return tally.stats(by: chosen, label: periods.name)
    }

    /// The rows of the totals for the days the window touches, summed across owners.
    private func totals(in window: Window, _ db: Database) throws -> [(day: Int64, type: String, sums: Sums)] {
        var conditions = ["trashed = ?"]
        var arguments: [any DatabaseValueConvertible] = [query.trashed]
        if let types = query.types {
            conditions.append("type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        if let from = query.createdFrom {
            conditions.append("day >= ?")
            arguments.append(Self.utcDay(of: from.millisecondsSinceEpoch))
        }
        if let before = query.createdBefore {
            conditions.append("day <= ?")
            arguments.append(Self.utcDay(of: before.millisecondsSinceEpoch - 1))
        }
        let statement = try db.cachedStatement(
            sql: "SELECT day, type, count, bytes_high, bytes_low FROM share_total WHERE \(conditions.joined(separator: " AND "))")
        var rows: [(day: Int64, type: String, sums: Sums)] = []
        try StatementColumns.forEachRow(of: statement, arguments: StatementArguments(arguments)) { row in
            let sums = Sums(count: Int(row.integer(2)), high: row.integer(3), low: row.integer(4))
            rows.append((row.integer(0), String(decoding: row.text(1), as: UTF8.self), sums))
            return true
        }
        return rows
    }

    /// The creation times of the first and the last record the query matches, looked for in the days of the
    /// totals (ascending) that hold any: in the first and the last, unless the window's ends leave them empty.
    private func matchedSpan(_ days: [Int64], _ window: Window, _ db: Database) throws -> (Int64, Int64)? {
        func bound(_ aggregate: String, _ days: some Sequence<Int64>) throws -> Int64? {
            for day in days {
                let filter = window.filter(from: day * Self.dayLength, before: (day + 1) * Self.dayLength)
                let sql = "SELECT \(aggregate)(created_at) FROM share WHERE \(filter.whereClause)"
                if let found = try Int64.fetchOne(db, sql: sql, arguments: StatementArguments(filter.arguments)) { return found }
            }
            return nil
        }
        guard let first = try bound("min", days), let last = try bound("max", days.reversed()) else { return nil }
        return (first, last)
    }

    /// Adds a cut day: every part of it but the longest read from the records, the longest as what remains.
    private func addParts(
        of day: Int64, totals: [String: Sums], cuts: Cuts, periods: Periods, window: Window, to tally: inout StatisticsTally,
        _ db: Database
    ) throws {
        let start = day * Self.dayLength
        let bounds = [start] + cuts.inside(start, start + Self.dayLength) + [start + Self.dayLength]
        let parts = zip(bounds, bounds.dropFirst()).map { (from: $0, before: $1) }
        let longest = parts.indices.max { parts[$0].before - parts[$0].from < parts[$1].before - parts[$1].from }!
        var rest = totals
        for (index, part) in parts.enumerated() where index != longest {
            let filter = window.filter(from: part.from, before: part.before)
            let statement = try db.cachedStatement(sql: "SELECT type, size FROM share WHERE \(filter.whereClause)")
            let counted = window.contains(part.from)
            let period = periods.index(of: part.from)
            try StatementColumns.forEachRow(of: statement, arguments: StatementArguments(filter.arguments)) { row in
                let type = String(decoding: row.text(0), as: UTF8.self)
                let sums = Sums(size: row.integer(1))
                rest[type, default: Sums()].subtract(sums)
                if counted { tally.add(sums, type: type, period: period) }
                return true
            }
        }
        guard window.contains(parts[longest].from) else { return }
        let period = periods.index(of: parts[longest].from)
        for (type, sums) in rest { tally.add(sums, type: type, period: period) }
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

    /// The query's filter, narrowed to the instants from `start` to `end` (exclusive).
    func filter(from start: Int64, before end: Int64) -> ShareFilter {
        var filter = ShareFilter(query, name: nil)
        filter.add("created_at >= ?", start)
        filter.add("created_at < ?", end)
        return filter
    }
}

/// The periods of the answer: each one's first day, and its first instant in the zone.
private struct Periods {
    let period: StatsPeriod
    let days: [CalendarDay]
    /// The first instant of every period but the first, which reaches back to the first match.
    let starts: [Int64]

    init(_ period: StatsPeriod, from firstDay: CalendarDay, through lastDay: CalendarDay, zone: ZonedCalendar) {
        self.period = period
        var days = [period.firstDay(of: firstDay)]
        if period != .none {
            while case let day = period.firstDay(after: days[days.count - 1]), day <= lastDay { days.append(day) }
        }
        self.days = days
        starts = zone.starts(of: Array(days.dropFirst())).map(\.millisecondsSinceEpoch)
    }

    /// The name of the period numbered `index`.
    func name(_ index: Int64) -> String {
        period.name(of: days[Int(index)])
    }

    /// The number of the period that holds `instant`.
    func index(of instant: Int64) -> Int64 {
        Int64(starts.partitioningIndex { $0 > instant })
    }
}

/// Every instant at which an answer's part changes: the periods' starts and the window's ends, in order.
private struct Cuts {
    private let instants: [Int64]

    /// `starts` in ascending order.
    init(_ starts: [Int64], _ window: Window) {
        let ends = [window.from, window.before].filter { $0 != .min && $0 != .max }
        instants = ends.isEmpty ? starts : Array(Set(starts + ends)).sorted()
    }

    /// The cuts strictly between `start` and `end`.
    func inside(_ start: Int64, _ end: Int64) -> [Int64] {
        let first = instants.partitioningIndex { $0 > start }
        return Array(instants[first...].prefix { $0 < end })
    }

    func anyInside(_ start: Int64, _ end: Int64) -> Bool {
        let first = instants.partitioningIndex { $0 > start }
        return first < instants.count && instants[first] < end
    }
}

extension Array {
    /// The index of the first element for which `belongs` is true, in an array where every such element follows
    /// every other (a binary search).
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
