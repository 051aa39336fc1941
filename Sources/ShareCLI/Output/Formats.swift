import Foundation
import ShareKit

/// How sizes and times read in the CLI.
enum Formats {
    /// `2021-01-17 20:40` in `zone` (with `:56` seconds when `seconds`). Near the ends of the years 0000–9999
    /// a local time may fall outside them: `10000-01-01 08:59`, never a wrapped year.
    /// `1 share`, `3 shares`.
    static func shares(_ count: Int) -> String {
        count == 1 ? "1 share" : "\(count) shares"
    }

    static func localTime(_ time: Timestamp, in zone: TimeZone, seconds: Bool = false) -> String {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.millisecondsSinceEpoch) / 1000))
        let (day, millisecond) = time.wallClock(offsetMilliseconds: Int64(offset) * 1000)
        let second = millisecond / 1000
        var text = "\(day) \(twoDigits(second / 3600)):\(twoDigits(second / 60 % 60))"
        if seconds { text += ":\(twoDigits(second % 60))" }
        return text
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
