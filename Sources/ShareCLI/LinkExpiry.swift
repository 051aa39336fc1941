import Foundation
import ShareKit

/// When a link stops opening, as `--expires` and `expire --in|--at` give it: a span from now (`30m`, `12h`, `7d`,
/// `2w`), a day (the link opens through its end, in the user's zone), or an RFC 3339 time.
enum LinkExpiry {
    private static let units: [Character: Int64] = ["m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000]

    /// The span `text` names (`7d`), in milliseconds; nil when it names none.
    static func span(_ text: String) -> Int64? {
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), (1...100_000).contains(count) else { return nil }
        return count * unit
    }

    /// The moment `span` after `now`.
    static func after(_ text: String, from now: Timestamp = .now()) throws -> Timestamp {
        guard let span = span(text) else {
            throw CommandFailure("'\(text)' is not a span of time such as 30m, 12h, 7d or 2w", status: .usage)
        }
        return Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch + span)
    }

    /// The moment `text` names: the end of a day in `zone`, or an RFC 3339 time.
    static func at(_ text: String, in zone: TimeZone) throws -> Timestamp {
        if let time = Timestamp(rfc3339: text) { return time }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let day = CalendarDay(text), let start = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)),
            let end = calendar.date(byAdding: .day, value: 1, to: start)
        else {
            throw CommandFailure("'\(text)' is not a date such as 2021-01-24 or a time such as 2021-01-24T18:00:00+08:00", status: .usage)
        }
        return Timestamp(millisecondsSinceEpoch: Int64((end.timeIntervalSince1970 * 1000).rounded()))
    }

    /// `--expires`: a span or a moment.
    static func parse(_ text: String, in zone: TimeZone) throws -> Timestamp {
        span(text) != nil ? try after(text) : try at(text, in: zone)
    }
}
