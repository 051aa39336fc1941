import Foundation
import ShareKit

/// Calendar days as people in a given time zone live them: 23 or 25 hours long on DST-change days.
///
/// Days are those of the proleptic Gregorian calendar, as RFC 3339 writes them, from 0000 to 9999: Foundation's
/// `Calendar` switches to the Julian calendar before 1582, so only the zone's UTC offsets are taken from it.
public struct ZonedCalendar: Sendable, Equatable {
    public let zone: TimeZone

    /// nil when `identifier` is not a zone this system knows (IANA names such as `Asia/Shanghai`, or `UTC`).
    public init?(identifier: String) {
        guard let zone = TimeZoneName.zone(identifier) else { return nil }
        self.init(zone: zone)
    }

    public init(zone: TimeZone) {
        self.zone = zone
    }

    /// The first instant of `day` in this zone: local midnight, or the end of a DST gap that swallows it.
    public func start(of day: CalendarDay) -> Timestamp {
        // Local midnight written as if it were UTC; the instant is that minus the offset in force then.
        let midnight = Timestamp(startOf: day).millisecondsSinceEpoch
        let dayLength = Timestamp.millisecondsPerDay
        let (earlier, later) = (offset(at: midnight - dayLength), offset(at: midnight + dayLength))
        let candidates = [midnight - earlier, midnight - later].filter { offset(at: $0) == midnight - $0 }
        if let first = candidates.min() { return Timestamp(millisecondsSinceEpoch: first) }
        // Midnight falls in a gap: the day starts when the clocks jump, the first instant whose local time is past
        // it. Offsets change on whole seconds, so the search is in seconds.
        var (before, after) = ((midnight - later) / 1000, (midnight - earlier) / 1000)
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if middle * 1000 + offset(at: middle * 1000) >= midnight { after = middle } else { before = middle }
        }
        return Timestamp(millisecondsSinceEpoch: after * 1000)
    }

    /// The zone's UTC offset at `start`, and each change of it up to `end`: enough to tell the local day of any
    /// instant in between without asking the zone again.
    public func offsets(from start: Timestamp, through end: Timestamp) -> (initial: Int64, changes: [(at: Int64, offset: Int64)]) {
        var changes: [(at: Int64, offset: Int64)] = []
        var cursor = Self.date(start.millisecondsSinceEpoch)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= Self.date(end.millisecondsSinceEpoch) {
            let at = Int64((next.timeIntervalSince1970 * 1000).rounded())
            changes.append((at, offset(at: at)))
            cursor = next
        }
        return (offset(at: start.millisecondsSinceEpoch), changes)
    }

    public static func == (lhs: ZonedCalendar, rhs: ZonedCalendar) -> Bool {
        lhs.zone.identifier == rhs.zone.identifier
    }

    /// The instants of `day`: from its start, inclusive, to the next day's start, exclusive.
    public func range(of day: CalendarDay) -> Range<Timestamp> {
        start(of: day)..<start(of: day.next)
    }

    /// The zone's offset from UTC at an instant, in milliseconds.
    private func offset(at milliseconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Self.date(milliseconds))) * 1000
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// A zone's offsets over a span of time, read from the zone once: the local days of many instants in the span,
/// and the starts of many days, without asking the zone for each.
struct ZoneSpan {
    private let calendar: ZonedCalendar
    private let initial: Int64
    private let changes: [(at: Int64, offset: Int64)]

    /// The offsets from `start` to `end` (milliseconds since 1970).
    init(_ calendar: ZonedCalendar, from start: Int64, through end: Int64) {
        self.calendar = calendar
        (initial, changes) = calendar.offsets(from: Timestamp(millisecondsSinceEpoch: start), through: Timestamp(millisecondsSinceEpoch: end))
    }

    /// The offset in force at `instant`.
    func offset(at instant: Int64) -> Int64 {
        let next = firstChange(after: instant)
        return next == 0 ? initial : changes[next - 1].offset
    }

    /// The index of the first change after `instant` (`changes.count` when none is).
    private func firstChange(after instant: Int64) -> Int {
        var (low, high) = (0, changes.count)
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].at <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The local day `instant` falls on.
    func day(of instant: Int64) -> CalendarDay {
        Timestamp(millisecondsSinceEpoch: instant).wallClock(offsetMilliseconds: offset(at: instant)).day
    }

    /// The first instant of `day`, as `ZonedCalendar.start(of:)` gives it: two days or more from any change of
    /// offset, its midnight less the offset in force; near one, asked of the zone.
    func start(of day: CalendarDay) -> Int64 {
        let midnight = Timestamp(startOf: day).millisecondsSinceEpoch
        let margin = 2 * Timestamp.millisecondsPerDay
        let next = firstChange(after: midnight - margin)
        if next < changes.count && changes[next].at < midnight + margin { return calendar.start(of: day).millisecondsSinceEpoch }
        return midnight - offset(at: midnight)
    }
}

extension ZonedCalendar {
    /// SQL (the same in SQLite and PostgreSQL) giving the local day number, plus `bias`, of the time in `column`
    /// (milliseconds), with the zone's offsets between `first` and `last`: what statistics group records by.
    package func localDayExpression(of column: String, from first: Int64, through last: Int64, bias: Int64) -> String {
        let offsets = offsets(from: Timestamp(millisecondsSinceEpoch: first), through: Timestamp(millisecondsSinceEpoch: last))
        var cases = ""
        var current = offsets.initial
        for change in offsets.changes {
            cases += "WHEN \(column) < \(change.at) THEN \(current) "
            current = change.offset
        }
        let offset = cases.isEmpty ? "\(current)" : "CASE \(cases)ELSE \(current) END"
        // The bias goes in before dividing: integer division rounds toward zero, which would misplace times before 1970.
        let biased = bias * Timestamp.millisecondsPerDay
        return "((\(column) + \(offset) + \(biased)) / \(Timestamp.millisecondsPerDay))"
    }
}
