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
    /// The most bytes the history's live records may hold, when it has a quota (the server adds it).
    public var quotaBytes: Int64?

    public init(count: Int, bytes: Decimal, types: [String: Total], by: StatsPeriod, periods: [Period]) {
        self.count = count
        self.bytes = bytes
        self.types = types
        self.by = by
        self.periods = periods
    }

    /// The statistics of no records, by `period` (nil, asked for the period that fits a span that has none: by day).
    public static func empty(by period: StatsPeriod?) -> ShareStats {
        ShareStats(count: 0, bytes: 0, types: [:], by: period ?? .day, periods: [])
    }
}

/// What the statistics are counted per: `by=day|month|year|none`.
public enum StatsPeriod: String, Codable, Sendable, CaseIterable {
    case day, month, year, none

    /// The period's name for a day in it: `2021-01-17`, `2021-01` or `2021` (`-0001`, `10000` for the local days
    /// beyond RFC 3339's years that a zone's offset can reach).
    public func name(of day: CalendarDay) -> String {
        switch self {
        case .day: return day.description
        case .month: return String(day.description.dropLast(3))
        case .year, .none: return String(day.description.dropLast(6))
        }
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

}
