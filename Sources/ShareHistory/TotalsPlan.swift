import ShareKit

/// A range of the running totals, or of the records, whose count and bytes per category a `TotalsPlan` needs.
package struct TotalsRead {
    package enum Grain { case days, quarterHours, records }

    package let grain: Grain
    /// The first instant (milliseconds since 1970) and the one after the last: whole UTC days or quarter hours but
    /// for records.
    package let from: Int64
    package let before: Int64

    package init(grain: Grain, from: Int64, before: Int64) {
        self.grain = grain
        self.from = from
        self.before = before
    }

    /// The numbers of the rows read, as the totals' `day` (days) or `quarter` (quarter hours) count them.
    package var numbers: Range<Int64> {
        switch grain {
        case .days: StatisticsFromTotals.utcDay(of: from)..<StatisticsFromTotals.utcDay(of: before)
        case .quarterHours, .records: StatisticsFromTotals.quarterHour(of: from)..<StatisticsFromTotals.quarterHour(of: before)
        }
    }
}

/// The statistics of one query by one period in one zone, from the monthly totals and the few reads (`reads`) each
/// period's ends need: a period holds what lies before its end less what lies before its start.
package struct TotalsPlan {
    private let chosen: StatsPeriod
    private let window: TotalsWindow
    /// Each period of the answer (numbered by its first local day; 0 for `.none`) with its first instant and the
    /// one after its last, within the window.
    private var periods: [(number: Int64, start: Int64, end: Int64)] = []
    /// What lies before each period's ends: a sum known from the months, and reads added or taken from it.
    private var prefixes: [Int64: (known: CategorySums, terms: [(read: Int, adds: Bool)])] = [:]
    /// The ranges whose sums per category the store reads, in the order `stats(reading:)` takes them.
    package private(set) var reads: [TotalsRead] = []

    init(chosen: StatsPeriod, zone: ZoneSpan, window: TotalsWindow, months rows: [TotalsRow]) {
        self.chosen = chosen
        self.window = window
        let months = MonthTotals(rows)
        if chosen == .none {
            periods = [(0, window.from, window.before)]
        } else {
            var firstDays = Set<Int64>()
            for month in months.firsts {
                let (lower, upper) = (max(month * Timestamp.millisecondsPerDay, window.from), min(MonthTotals.end(of: month), window.before))
                guard lower < upper else { continue }
                var first = chosen.firstDay(of: zone.day(of: lower))
                repeat {
                    firstDays.insert(first.daysSinceEpoch)
                    first = chosen.firstDay(after: first)
                } while zone.start(of: first) < upper
            }
            periods = firstDays.sorted().map { first in
                let day = CalendarDay(daysSinceEpoch: first)
                return (first, max(zone.start(of: day), window.from), min(zone.start(of: chosen.firstDay(after: day)), window.before))
            }
        }
        for period in periods where period.start < period.end {
            for instant in [period.start, period.end] where prefixes[instant] == nil {
                prefixes[instant] = prefix(before: instant, months)
            }
        }
    }

    /// The query's filters over the instants of `read`, whatever its window: for the records a read counts.
    package func query(over read: TotalsRead) -> ShareQuery {
        var narrowed = window.query
        narrowed.createdFrom = Timestamp(millisecondsSinceEpoch: read.from)
        narrowed.createdBefore = Timestamp(millisecondsSinceEpoch: read.before)
        return narrowed
    }

    /// The statistics, given the sums per category of each of `reads`, in order.
    package func stats(reading sums: [CategorySums]) -> ShareStats {
        func before(_ instant: Int64) -> CategorySums {
            guard let prefix = prefixes[instant] else { return CategorySums() }
            var total = prefix.known
            for term in prefix.terms {
                if term.adds { total.add(sums[term.read]) } else { total.subtract(sums[term.read]) }
            }
            return total
        }
        var tally = StatisticsTally()
        for period in periods where period.start < period.end {
            let (atStart, atEnd) = (before(period.start), before(period.end))
            var within = atEnd
            within.subtract(atStart)
            for (category, type) in IconCategory.allCases.enumerated() {
                tally.add(within[category], type: type.rawValue, period: period.number)
            }
        }
        return tally.stats(by: chosen) { chosen.name(of: CalendarDay(daysSinceEpoch: $0)) }
    }

    /// What lies before `instant`: the months before its own, then whichever reads of its month cost fewer rows.
    private mutating func prefix(before instant: Int64, _ months: MonthTotals) -> (known: CategorySums, terms: [(read: Int, adds: Bool)]) {
        if instant == .min { return (CategorySums(), []) }
        if instant == .max { return (months.before(.max), []) }
        let (dayLength, quarterLength) = (Timestamp.millisecondsPerDay, StatisticsFromTotals.millisecondsPerQuarterHour)
        let day = StatisticsFromTotals.utcDay(of: instant)
        let month = StatisticsFromTotals.firstOfMonth(day)
        var known = months.before(month)
        guard let monthSums = months.sums[month] else { return (known, []) }
        let (monthStart, monthEnd, dayStart) = (month * dayLength, MonthTotals.end(of: month), day * dayLength)
        let quarterStart = instant - (instant - dayStart) % quarterLength
        var terms: [(read: Int, adds: Bool)] = []
        func add(_ grain: TotalsRead.Grain, _ from: Int64, _ before: Int64, adds: Bool = true) {
            guard from < before else { return }
            terms.append((reads.count, adds))
            reads.append(TotalsRead(grain: grain, from: from, before: before))
        }
        // The day's quarter hours before the instant's, or the whole day less those from it on: the fewer, but on
        // a month's first or last day the side at the month's edge, which needs no read of days (at most the 14
        // hours a zone is from UTC; a local month starts on one of them).
        let throughDay =
            if dayStart == monthStart { false } else if dayStart + dayLength == monthEnd { true } else { (quarterStart - dayStart) * 2 > dayLength }
        let split = throughDay ? dayStart + dayLength : dayStart
        // The month's days before `split`, or the whole month less those from it on: the fewer.
        if split - monthStart <= monthEnd - split {
            add(.days, monthStart, split)
        } else {
            known.add(monthSums)
            add(.days, split, monthEnd, adds: false)
        }
        if throughDay {
            add(.quarterHours, quarterStart, split, adds: false)
        } else {
            add(.quarterHours, dayStart, quarterStart)
        }
        add(.records, quarterStart, instant)
        return (known, terms)
    }
}

/// The monthly totals' rows per month (numbered by its first day) and category, and what all months before each
/// add up to.
private struct MonthTotals {
    let sums: [Int64: CategorySums]
    /// The months holding rows, oldest first, and the sums of those before each (one more: of all of them).
    let firsts: [Int64]
    private let cumulative: [CategorySums]

    init(_ rows: [TotalsRow]) {
        var sums: [Int64: CategorySums] = [:]
        for row in rows { sums[row.day, default: CategorySums()][row.category].add(row.sums) }
        self.sums = sums
        firsts = sums.keys.sorted()
        var running = CategorySums()
        var cumulative = [running]
        for month in firsts {
            running.add(sums[month]!)
            cumulative.append(running)
        }
        self.cumulative = cumulative
    }

    /// The sums of the months that start before the month whose first day is `month`.
    func before(_ month: Int64) -> CategorySums {
        var (low, high) = (0, firsts.count)
        while low < high {
            let middle = (low + high) / 2
            if firsts[middle] < month { low = middle + 1 } else { high = middle }
        }
        return cumulative[low]
    }

    /// The instant after the last of the month whose first day is `month`.
    static func end(of month: Int64) -> Int64 {
        StatsPeriod.month.firstDay(after: CalendarDay(daysSinceEpoch: month)).daysSinceEpoch * Timestamp.millisecondsPerDay
    }
}
