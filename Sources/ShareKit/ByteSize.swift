import Foundation

/// How a number of bytes reads, in the CLI and on the recipient's page.
public enum ByteSize {
    private static let units = ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]

    /// 1000-based units with one decimal: `999 B`, `1.2 kB`, `2.5 MB`, `3.1 GB`. Exact integer arithmetic,
    /// rounding half to even as `%.1f` does: a listing formats a hundred of these.
    public static func text(_ bytes: Int64) -> String {
        text(UInt64(max(0, bytes)), thousandsAlready: 0)
    }

    /// Sizes of totals, which can exceed 64 bits: brought into range a thousand at a time first (what is cut
    /// is far below the tenth shown).
    public static func text(_ bytes: Decimal) -> String {
        var scaled = bytes
        var thousands = 0
        while scaled > Decimal(UInt64.max) {
            scaled /= 1000
            thousands += 1
        }
        return text(NSDecimalNumber(decimal: scaled).uint64Value, thousandsAlready: thousands)
    }

    /// `value` counts units of 1000^`thousandsAlready` bytes.
    private static func text(_ value: UInt64, thousandsAlready: Int) -> String {
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
}
