import Foundation
import ShareKit

/// Calendar days as people in a given time zone live them: 23 or 25 hours long on DST-change days.
public struct ZonedCalendar: Sendable, Equatable {
    public let zone: TimeZone
    private let calendar: Calendar

    /// nil when `identifier` is not a zone this system knows (IANA names such as `Asia/Shanghai`, or `UTC`).
    public init?(identifier: String) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(zone: zone)
    }

    public init(zone: TimeZone) {
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// The first instant of `day` in this zone: local midnight, or the end of a DST gap that swallows it.
    public func start(of day: CalendarDay) -> Timestamp {
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard let date = calendar.date(from: components) else {
            // Only reachable for years Foundation cannot represent; fall back to the zone's standard offset.
            return Timestamp(millisecondsSinceEpoch: Timestamp(startOf: day).millisecondsSinceEpoch
                - Int64(zone.secondsFromGMT()) * 1000)
        }
        return Timestamp(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The zone's UTC offset at `start`, and each change of it up to `end`: enough to tell the local day of any
    /// instant in between without asking the zone again.
    public func offsets(from start: Timestamp, through end: Timestamp) -> (initial: Int64, changes: [(at: Int64, offset: Int64)]) {
        func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        func offset(at date: Date) -> Int64 { Int64(zone.secondsFromGMT(for: date)) * 1000 }
        var changes: [(at: Int64, offset: Int64)] = []
        var cursor = date(start.millisecondsSinceEpoch)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= date(end.millisecondsSinceEpoch) {
            changes.append((Int64((next.timeIntervalSince1970 * 1000).rounded()), offset(at: next)))
            cursor = next
        }
        return (offset(at: date(start.millisecondsSinceEpoch)), changes)
    }

    public static func == (lhs: ZonedCalendar, rhs: ZonedCalendar) -> Bool {
        lhs.zone.identifier == rhs.zone.identifier
    }

    /// The instants of `day`: from its start, inclusive, to the next day's start, exclusive.
    public func range(of day: CalendarDay) -> Range<Timestamp> {
        start(of: day)..<start(of: day.next)
    }
}
