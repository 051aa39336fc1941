import ShareKit

/// Statistics added up from the running totals (the count and bytes of each owner, trash state, type and UTC day,
/// or UTC month, kept by each store with every change) rather than from every record: the arithmetic, which both
/// stores share; each store reads its own totals and records for it.
///
/// Months answer when no boundary of the answer falls inside one (no periods, or the zone's months are UTC's, and
/// the window is whole months). Otherwise a UTC day that lies wholly inside one period of the answer (a local day,
/// month or year, within the query's window) counts whole. A day that a boundary cuts (a local midnight that is not
/// one in UTC, as 05:00Z is in New York and 18:30Z in Kolkata, or a `from`/`to` time) is split at its boundaries:
/// the records of every part but the longest are read through the creation-time index, and the longest part is the
/// day's total less them. A cut day therefore costs the records of at most half a day, an uncut one none. Periods
/// are worked out only for the days the totals hold, so a history spread over centuries costs no more than its rows.
package struct StatisticsFromTotals {
    package let query: ShareQuery
    private let window: Window

    package init(_ query: ShareQuery) {
        self.query = query
        window = Window(query)
    }

    /// Whether the totals hold every filter of `query`: all but the text, the states and a folder.
    package static func canAnswer(_ query: ShareQuery) -> Bool {
        query.nameWords.isEmpty && query.states == nil && (query.folder == nil || (query.folder == FolderPath.root && query.recursive))
    }

    /// As in the totals' `day`: the bias makes the division round down before 1970 too.
    private static let dayBias: Int64 = 1_000_000

    /// The UTC day number of an instant, as the totals' `day` has it.
    package static func utcDay(of milliseconds: Int64) -> Int64 {
        (milliseconds + dayBias * Timestamp.millisecondsPerDay) / Timestamp.millisecondsPerDay - dayBias
    }

    /// The first day of the UTC month that holds `day`, as the monthly totals number their months.
    package static func firstOfMonth(_ day: Int64) -> Int64 {
        StatsPeriod.month.firstDay(of: CalendarDay(daysSinceEpoch: day)).daysSinceEpoch
    }

    /// The number of the category `type` names in `IconCategory.allCases`, the totals' rows' `category`.
    package static func category(named type: String) -> Int {
        IconCategory.allCases.firstIndex { $0.rawValue == type } ?? IconCategory.allCases.count - 1
    }

    /// The UTC days of the window's first and last instants, nil where it is open: the totals' rows lie between.
    package var dayBounds: (first: Int64?, last: Int64?) {
        (window.from == .min ? nil : Self.utcDay(of: window.from), window.before == .max ? nil : Self.utcDay(of: window.before - 1))
    }

    /// Where to look for the earliest (or latest) matching record when the totals say it lies on the UTC day `day`:
    /// that day within the window, then (the window's ends leaving the day empty) the whole window.
    package func spanSearches(inDay day: Int64) -> [ShareQuery] {
        [(day * Timestamp.millisecondsPerDay, (day + 1) * Timestamp.millisecondsPerDay), (Int64.min, Int64.max)].compactMap { from, before in
            window.narrowed(from: from, before: before)
        }
    }

    /// How the answer is added up over the totals' days from `firstDay` through `lastDay`: by `period`, or (nil) by
    /// the one that fits the span of the matching records, from the first's creation time to the last's.
    package func answer(by period: StatsPeriod?, from firstDay: Int64, through lastDay: Int64, matched: (first: Int64, last: Int64)?) -> Answer {
        let dayLength = Timestamp.millisecondsPerDay
        let zone = ZoneSpan(query.zone, from: (firstDay - 2) * dayLength, through: (lastDay + 3) * dayLength)
        let chosen = period ?? matched.map { StatsPeriod.fitting(from: zone.day(of: $0.first), through: zone.day(of: $0.last)) } ?? .day
        return Answer(chosen: chosen, zone: zone, window: window)
    }

    /// The answer by one period in one zone, from the totals' rows.
    package struct Answer {
        let chosen: StatsPeriod
        let zone: ZoneSpan
        fileprivate let window: Window

        /// Whether the monthly totals answer (else the daily ones).
        package var readsMonths: Bool {
            window.isWholeMonths && (chosen == .none || (chosen != .day && zone.isUTC))
        }

        /// The statistics from the monthly totals' rows (each `day` the first of its month).
        package func stats(fromMonths rows: [TotalsRow]) -> ShareStats {
            var cells: [Cell: Sums] = [:]
            for row in rows {
                let period = chosen == .none ? 0 : chosen.firstDay(of: CalendarDay(daysSinceEpoch: row.day)).daysSinceEpoch
                cells[Cell(category: row.category, period: period), default: Sums()].add(row.sums)
            }
            return stats(cells)
        }

        /// The daily totals' rows split into the days that count whole and the parts of cut days whose records
        /// are to be read; nil when those records would cost more than reading every matching record (a record
        /// looked up through an index costs about ten read in order), unless `evenIfRecordsCostLess`.
        package func split(days rows: [TotalsRow], evenIfRecordsCostLess: Bool) -> DaySplit? {
            let periods = Periods(period: chosen, zone: zone, window: window)
            var layouts: [Int64: DayLayout] = [:]
            var split = DaySplit(answer: self)
            for row in rows {
                let layout = layouts[row.day] ?? periods.layout(ofDay: row.day)
                layouts[row.day] = layout
                switch layout {
                case .whole(let period?): split.cells[Cell(category: row.category, period: period), default: Sums()].add(row.sums)
                case .whole(nil): break
                case .cut: split.cutDays[row.day, default: [:]][row.category, default: Sums()].add(row.sums)
                }
            }
            var looksUp = 0.0
            for (day, totals) in split.cutDays.sorted(by: { $0.key < $1.key }) {
                guard case .cut(let parts) = layouts[day] else { continue }
                // Every part but the longest is read from the records; the longest is what the day's totals leave.
                let longest = parts.indices.max { parts[$0].length < parts[$1].length }!
                split.days.append(CutDay(day: day, parts: parts, longest: longest, firstRead: split.reads.count))
                split.reads += parts.enumerated().filter { $0.offset != longest }.map(\.element)
                let share = Double(Timestamp.millisecondsPerDay - parts[longest].length) / Double(Timestamp.millisecondsPerDay)
                looksUp += Double(totals.values.reduce(0) { $0 + $1.count }) * share
            }
            guard evenIfRecordsCostLess || looksUp * 10 <= Double(rows.reduce(0) { $0 + $1.sums.count }) else { return nil }
            return split
        }

        fileprivate func stats(_ cells: [Cell: Sums]) -> ShareStats {
            var tally = StatisticsTally()
            for (cell, sums) in cells { tally.add(sums, type: IconCategory.allCases[cell.category].rawValue, period: cell.period) }
            return tally.stats(by: chosen) { chosen.name(of: CalendarDay(daysSinceEpoch: $0)) }
        }
    }

    /// The daily totals' rows, the days that count whole added up, and the parts of cut days whose records are read.
    package struct DaySplit {
        fileprivate let answer: Answer
        fileprivate var cells: [Cell: Sums] = [:]
        fileprivate var cutDays: [Int64: [Int: Sums]] = [:]
        fileprivate var days: [CutDay] = []
        /// The parts of cut days whose matching records are to be read, each summed per category.
        package fileprivate(set) var reads: [DayPart] = []

        /// The query's filters over the instants of `part` (which lies wholly inside or wholly outside the window:
        /// a part outside is read all the same, for what it takes from its day's total).
        package func query(over part: DayPart) -> ShareQuery {
            var narrowed = answer.window.query
            narrowed.createdFrom = Timestamp(millisecondsSinceEpoch: part.from)
            narrowed.createdBefore = Timestamp(millisecondsSinceEpoch: part.before)
            return narrowed
        }

        /// The statistics, given the sums per category of the records of each of `reads`, in order.
        package func stats(reading sums: [[Int: Sums]]) -> ShareStats {
            var cells = cells
            for cut in days {
                var rest = cutDays[cut.day] ?? [:]
                var read = cut.firstRead
                for (index, part) in cut.parts.enumerated() where index != cut.longest {
                    for (category, partSums) in sums[read] {
                        rest[category, default: Sums()].subtract(partSums)
                        if let period = part.period { cells[Cell(category: category, period: period), default: Sums()].add(partSums) }
                    }
                    read += 1
                }
                guard let period = cut.parts[cut.longest].period else { continue }
                for (category, sums) in rest { cells[Cell(category: category, period: period), default: Sums()].add(sums) }
            }
            return answer.stats(cells)
        }
    }
}

/// A row of the totals: a day (or a month's first day), the number of a category in `IconCategory.allCases`,
/// its count and bytes.
package struct TotalsRow {
    let day: Int64
    let category: Int
    let sums: Sums

    package init(day: Int64, category: Int, sums: Sums) {
        self.day = day
        self.category = category
        self.sums = sums
    }
}

/// The instants of a cut day from `from` to `before` (exclusive), all in one period (nil: outside the window).
package struct DayPart {
    package let from: Int64
    package let before: Int64
    let period: Int64?

    var length: Int64 { before - from }
}

/// A day the answer's boundaries cut: its parts, the longest, and where its parts' reads start in `reads`.
private struct CutDay {
    let day: Int64
    let parts: [DayPart]
    let longest: Int
    let firstRead: Int
}

/// A category in a period (numbered by the period's first day, in days since 1970).
private struct Cell: Hashable {
    let category: Int
    let period: Int64
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

    /// The query narrowed to the instants from `start` to `end` (exclusive); nil when nothing of the window is
    /// left. One range, not two: SQLite bounds an index's range by one condition on each side.
    func narrowed(from start: Int64, before end: Int64) -> ShareQuery? {
        let (lower, upper) = (max(from, start), min(before, end))
        guard lower < upper else { return nil }
        var part = query
        part.createdFrom = lower == .min ? nil : Timestamp(millisecondsSinceEpoch: lower)
        part.createdBefore = upper == .max ? nil : Timestamp(millisecondsSinceEpoch: upper)
        return part
    }
}

/// How a UTC day falls into the answer's periods: wholly in one (nil: outside the window), or cut into parts.
private enum DayLayout {
    case whole(Int64?)
    case cut([DayPart])
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
