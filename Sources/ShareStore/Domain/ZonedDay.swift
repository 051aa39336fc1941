import Foundation
import ShareKit

/// Calendar days as people in a given time zone live them: 23 or 25 hours long on DST-change days.
public struct ZonedCalendar: Sendable {
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

    /// The instants of `day`: from its start, inclusive, to the next day's start, exclusive.
    public func range(of day: CalendarDay) -> Range<Timestamp> {
        start(of: day)..<start(of: day.next)
    }
}
