/// An instant, to the millisecond, written on the wire as RFC 3339 in UTC (`2021-01-17T12:34:56.789Z`).
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let millisecondsSinceEpoch: Int64

    public static let millisecondsPerDay: Int64 = 86_400_000
    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants RFC 3339 can write.
    public static let earliest = Timestamp(millisecondsSinceEpoch: -62_167_219_200_000)
    public static let latest = Timestamp(millisecondsSinceEpoch: 253_402_300_799_999)

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The current time, truncated to the millisecond.
    public static func now() -> Timestamp {
        return Timestamp(millisecondsSinceEpoch: wallClockMilliseconds())
    }

    /// Midnight UTC at the start of `day`.
    public init(startOf day: CalendarDay) {
        self.millisecondsSinceEpoch = day.daysSinceEpoch * Self.millisecondsPerDay
    }

    /// The UTC day this instant falls on.
    public var utcDay: CalendarDay {
        CalendarDay(daysSinceEpoch: Self.floorDivide(millisecondsSinceEpoch, Self.millisecondsPerDay))
    }

    /// The day and the millisecond of that day a clock `offset` milliseconds east of UTC shows at this instant.
    public func wallClock(offsetMilliseconds offset: Int64) -> (day: CalendarDay, millisecondOfDay: Int64) {
        let local = millisecondsSinceEpoch + offset
        let days = Self.floorDivide(local, Self.millisecondsPerDay)
        return (CalendarDay(daysSinceEpoch: days), local - days * Self.millisecondsPerDay)
    }

    public var description: String {
        var bytes: [UInt8] = []
        appendRFC3339(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `2021-01-17T12:34:56.789Z` digit by digit: listings write thousands of these without building Strings
    /// or asking Foundation's formatters (part of the page speed-up in docs/benchmarks.md, "A 100-row page").
    /// Days are Howard Hinnant's `civil_from_days` (`CalendarDay`), in the proleptic Gregorian calendar.
    public func appendRFC3339(to bytes: inout [UInt8]) {
        let day = utcDay
        let millisOfDay = Int(millisecondsSinceEpoch - day.daysSinceEpoch * Self.millisecondsPerDay)
        let start = bytes.count
        bytes.append(contentsOf: "0000-00-00T00:00:00.000Z".utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            /// Writes `value`'s last digits into the zeros that end at `end`.
            func digits(_ value: Int, endingAt end: Int) {
                var rest = value
                var index = start + end
                while rest > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    index -= 1
                }
            }
            digits(day.year, endingAt: 3)
            digits(day.month, endingAt: 6)
            digits(day.day, endingAt: 9)
            digits(millisOfDay / 3_600_000, endingAt: 12)
            digits(millisOfDay / 60_000 % 60, endingAt: 15)
            digits(millisOfDay / 1000 % 60, endingAt: 18)
            digits(millisOfDay % 1000, endingAt: 22)
        }
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let timestamp = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an RFC 3339 time such as 2021-01-17T12:34:56.789Z")
        }
        self = timestamp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `value / divisor` rounded down, before 1970 too (`/` rounds toward zero); `divisor` is positive.
    package static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Timestamp {
    static func wallClockMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension Timestamp {
    /// The time `duration` after this one, to the millisecond.
    public func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
