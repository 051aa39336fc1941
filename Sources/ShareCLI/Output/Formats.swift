import Foundation
import ShareKit

/// How sizes and times read in the CLI.
enum Formats {
    /// 1000-based units with one decimal: `999 B`, `1.2 kB`, `2.5 MB`, `3.1 GB`.
    static func size(_ bytes: Int64) -> String {
        size(Decimal(bytes))
    }

    /// Sizes of totals, which can exceed 64 bits.
    static func size(_ bytes: Decimal) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
        var scaled = NSDecimalNumber(decimal: bytes).doubleValue / 1000
        var unit = 0
        // 999.95 would print as 1000.0 of this unit: it is 1.0 of the next.
        while scaled >= 999.95, unit < units.count - 1 {
            scaled /= 1000
            unit += 1
        }
        return String(format: "%.1f %@", scaled, units[unit])
    }

    /// `2021-01-17 20:40` in `zone` (with `:56` seconds when `seconds`).
    static func localTime(_ time: Timestamp, in zone: TimeZone, seconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(time.millisecondsSinceEpoch) / 1000)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let minutes = "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
        return seconds ? minutes + ":" + two(parts.second) : minutes
    }
}
