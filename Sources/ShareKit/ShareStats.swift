import Foundation

/// `GET /share/stats`: how many shares and bytes, in total, per icon category, and per day, month or year (in the
/// request's zone).
public struct ShareStats: Codable, Sendable, Equatable {
    /// A count of shares and the bytes they add up to (exact: sums can exceed 64 bits).
    public struct Total: Codable, Sendable, Equatable {
        public var count: Int
        public var bytes: Decimal

        public init(count: Int = 0, bytes: Decimal = 0) {
            self.count = count
            self.bytes = bytes
        }
    }

    /// The shares of one day (`2021-01-17`), month (`2021-01`) or year (`2021`).
    public struct Period: Codable, Sendable, Equatable {
        public var period: String
        public var count: Int
        public var bytes: Decimal

        public init(period: String, count: Int, bytes: Decimal) {
            self.period = period
            self.count = count
            self.bytes = bytes
        }
    }

    public var count: Int
    public var bytes: Decimal
    /// Keyed by icon category; categories with no shares are absent.
    public var types: [String: Total]
    /// What `periods` are: `day`, `month`, `year`, or `none` (no periods).
    public var by: StatsPeriod
    /// Periods with shares, oldest first.
    public var periods: [Period]

    public init(count: Int, bytes: Decimal, types: [String: Total], by: StatsPeriod, periods: [Period]) {
        self.count = count
        self.bytes = bytes
        self.types = types
        self.by = by
        self.periods = periods
    }

    /// These statistics by day, regrouped `by` another period, or by the one that fits their span when nil.
    public func grouped(by period: StatsPeriod?) -> ShareStats {
        precondition(by == .day, "statistics are regrouped from days")
        let chosen = period ?? StatsPeriod.fitting(first: periods.first?.period, last: periods.last?.period)
        var grouped: [Period] = []
        if chosen != .none {
            for day in periods {
                let key = String(day.period.prefix(chosen.keyLength))
                if grouped.last?.period == key {
                    grouped[grouped.count - 1].count += day.count
                    grouped[grouped.count - 1].bytes += day.bytes
                } else {
                    grouped.append(Period(period: key, count: day.count, bytes: day.bytes))
                }
            }
        }
        return ShareStats(count: count, bytes: bytes, types: types, by: chosen, periods: grouped)
    }
}

/// What the statistics are counted per: `by=day|month|year|none`.
public enum StatsPeriod: String, Codable, Sendable, CaseIterable {
    case day, month, year, none

    /// How much of a day's `YYYY-MM-DD` names its period.
    var keyLength: Int {
        switch self {
        case .day: return 10
        case .month: return 7
        case .year, .none: return 4
        }
    }

    /// The period's name for a day in it: `2021-01-17`, `2021-01` or `2021`.
    public func name(of day: CalendarDay) -> String {
        String(day.description.prefix(keyLength))
    }

    /// The first day of the period that holds `day` (the day itself for `.day` and `.none`).
    public func firstDay(of day: CalendarDay) -> CalendarDay {
        switch self {
        case .day, .none: return day
        case .month: return CalendarDay(daysSinceEpoch: day.daysSinceEpoch - Int64(day.day - 1))
        case .year: return CalendarDay(year: day.year, month: 1, day: 1) ?? day
        }
    }

    /// The first day of the period after the one that starts on `first`.
    public func firstDay(after first: CalendarDay) -> CalendarDay {
        switch self {
        case .day, .none: return first.next
        case .month:
            return CalendarDay(daysSinceEpoch: first.daysSinceEpoch + Int64(CalendarDay.daysIn(month: first.month, year: first.year)))
        case .year:
            let leap = CalendarDay.daysIn(month: 2, year: first.year) == 29
            return CalendarDay(daysSinceEpoch: first.daysSinceEpoch + (leap ? 366 : 365))
        }
    }

    /// The period that keeps a span readable, a screen or so of lines: days up to 92 days, months up to five
    /// years, years beyond.
    public static func fitting(from first: CalendarDay, through last: CalendarDay) -> StatsPeriod {
        let days = last.daysSinceEpoch - first.daysSinceEpoch
        return days <= 92 ? .day : days <= 5 * 366 ? .month : .year
    }

    static func fitting(first: String?, last: String?) -> StatsPeriod {
        guard let first = first.flatMap({ CalendarDay($0) }), let last = last.flatMap({ CalendarDay($0) }) else { return .day }
        return fitting(from: first, through: last)
    }
}
