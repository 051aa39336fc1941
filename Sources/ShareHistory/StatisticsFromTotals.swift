import ShareKit

/// Statistics added up from the running totals (the count and bytes of each owner, trash state, type and UTC month,
/// UTC day or UTC quarter hour, kept by each store with every change) rather than from every record: the
/// arithmetic, which both stores share; each store reads its own totals for it (`TotalsPlan`).
///
/// Every zone in use today is a whole number of quarter hours from UTC, so its midnights, and the starts of its
/// months and years, fall on a quarter hour of the totals: the totals alone answer, whatever the zone. What lies
/// before an instant is the months before its own, then its month's days and its day's quarter hours before it
/// (or the month less those after it, whichever are fewer rows), then the records of its quarter hour before it
/// (none at a quarter hour; an odd minute, or a zone's offset from before 1970, reads those few).
package struct StatisticsFromTotals {
    package let query: ShareQuery
    private let window: TotalsWindow

    package init(_ query: ShareQuery) {
        self.query = query
        window = TotalsWindow(query)
    }

    /// Whether the totals hold every filter of `query`: all but the text, the states and a folder.
    package static func canAnswer(_ query: ShareQuery) -> Bool {
        query.nameWords.isEmpty && query.states == nil && (query.folder == nil || (query.folder == FolderPath.root && query.recursive))
    }

    /// As in the totals' `day` and `quarter`: the bias makes the division round down before 1970 too.
    private static let dayBias: Int64 = 1_000_000

    static let millisecondsPerQuarterHour: Int64 = 900_000

    /// The UTC day number of an instant, as the totals' `day` has it.
    package static func utcDay(of milliseconds: Int64) -> Int64 {
        (milliseconds + dayBias * Timestamp.millisecondsPerDay) / Timestamp.millisecondsPerDay - dayBias
    }

    /// The UTC quarter-hour number of an instant, as the totals' `quarter` has it.
    package static func quarterHour(of milliseconds: Int64) -> Int64 {
        let quartersPerDay = Timestamp.millisecondsPerDay / millisecondsPerQuarterHour
        return (milliseconds + dayBias * Timestamp.millisecondsPerDay) / millisecondsPerQuarterHour - dayBias * quartersPerDay
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

    /// The records counted, as a query (nil: none can be), for a store that looks for the first or last of them in
    /// one statement rather than through `spanSearches`.
    package var windowQuery: ShareQuery? { window.narrowed(from: .min, before: .max) }

    /// How the answer is added up from the monthly totals' rows `months` (each `day` the first of its month, the
    /// window's months and no others): by `period`, or (nil) by the one that fits the span of the matching records,
    /// from the first's creation time to the last's.
    package func plan(by period: StatsPeriod?, matched: (first: Int64, last: Int64)?, months: [TotalsRow]) -> TotalsPlan {
        let dayLength = Timestamp.millisecondsPerDay
        let (first, last) = (months.map(\.day).min() ?? 0, months.map(\.day).max() ?? 0)
        let zone = ZoneSpan(query.zone, from: (first - 2) * dayLength, through: (last + 33) * dayLength)
        let chosen = period ?? matched.map { StatsPeriod.fitting(from: zone.day(of: $0.first), through: zone.day(of: $0.last)) } ?? .day
        return TotalsPlan(chosen: chosen, zone: zone, window: window, months: months)
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

/// The query's `createdAt` window: `from` inclusive, `before` exclusive, unbounded (`.min`, `.max`) where it
/// names no bound.
struct TotalsWindow {
    let query: ShareQuery
    let from: Int64
    let before: Int64

    init(_ query: ShareQuery) {
        self.query = query
        from = query.createdFrom?.millisecondsSinceEpoch ?? .min
        before = query.createdBefore?.millisecondsSinceEpoch ?? .max
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
