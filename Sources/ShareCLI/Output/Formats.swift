import Foundation
import ShareKit

/// How sizes and times read in the CLI.
enum Formats {
    private static let units = ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]

    /// 1000-based units with one decimal: `999 B`, `1.2 kB`, `2.5 MB`, `3.1 GB`. Exact integer arithmetic,
    /// rounding half to even as `%.1f` does: a listing formats a hundred of these.
    static func size(_ bytes: Int64) -> String {
        size(UInt64(max(0, bytes)), thousandsAlready: 0)
    }

    /// Sizes of totals, which can exceed 64 bits: brought into range a thousand at a time first (what is cut
    /// is far below the tenth shown).
    static func size(_ bytes: Decimal) -> String {
        var scaled = bytes
        var thousands = 0
        while scaled > Decimal(UInt64.max) {
            scaled /= 1000
            thousands += 1
        }
        return size(NSDecimalNumber(decimal: scaled).uint64Value, thousandsAlready: thousands)
    }

    /// `value` counts units of 1000^`thousandsAlready` bytes.
    private static func size(_ value: UInt64, thousandsAlready: Int) -> String {
        guard value >= 1000 || thousandsAlready > 0 else { return "\(value) B" }
        var tenth: UInt64 = 100  // a tenth of the next unit, in `value`'s units
        for unit in units[thousandsAlready...] {
            var tenths = value / tenth
            let remainder = value % tenth
            if remainder * 2 > tenth || remainder * 2 == tenth && tenths % 2 == 1 { tenths += 1 }
            // 999.95 would print as 1000.0 of this unit: it is 1.0 of the next.
            if tenths < 10_000 || unit == units.last { return "\(tenths / 10).\(tenths % 10) \(unit)" }
            tenth *= 1000
        }
        return "\(value) B"
    }

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
