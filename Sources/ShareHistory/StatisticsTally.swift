import Foundation
import ShareKit

/// Counts and bytes added up per icon category and per period, as statistics are read (from the records or from
/// the running totals); periods are numbered by the reader, oldest first.
package struct StatisticsTally {
    private var types: [String: Sums] = [:]
    private var periods: [Int64: Sums] = [:]

    package init() {}

    package mutating func add(_ sums: Sums, type: String, period: Int64) {
        guard sums.count != 0 else { return }
        types[type, default: Sums()].add(sums)
        periods[period, default: Sums()].add(sums)
    }

    /// The statistics, each period named by `label` (`2021-01-17`, `2021-01`, `2021`); none for `.none`.
    package func stats(by period: StatsPeriod, label: (Int64) -> String) -> ShareStats {
        var stats = ShareStats.empty(by: period)
        var total = Sums()
        for (type, sums) in types {
            total.add(sums)
            stats.types[type] = sums.total
        }
        stats.count = total.count
        stats.bytes = total.total.bytes
        if period != .none {
            stats.periods = periods.sorted { $0.key < $1.key }.map { key, sums in
                ShareStats.Period(period: label(key), count: sums.count, bytes: sums.total.bytes)
            }
        }
        return stats
    }
}

/// A count and its sizes, summed as two 32-bit halves: sizes go up to 2^63, and neither half's sum can overflow.
/// The running totals keep the same halves (`bytes_high`, `bytes_low`).
package struct Sums {
    package var count = 0
    package var high: Int64 = 0
    package var low: Int64 = 0

    package init() {}

    package init(count: Int, high: Int64, low: Int64) {
        self.count = count
        self.high = high
        self.low = low
    }

    /// One record of `size` bytes.
    package init(size: Int64) {
        self.init(count: 1, high: size >> 32, low: size & 0xFFFF_FFFF)
    }

    package mutating func add(_ other: Sums) {
        count += other.count
        high += other.high
        low += other.low
    }

    package mutating func subtract(_ other: Sums) {
        count -= other.count
        high -= other.high
        low -= other.low
    }

    package var total: ShareStats.Total {
        let (shifted, overflows) = high.multipliedReportingOverflow(by: 4_294_967_296)
        let (bytes, overflowsToo) = shifted.addingReportingOverflow(low)
        // Decimal's own arithmetic only beyond 63 bits: it takes several times as long.
        return ShareStats.Total(count: count, bytes: overflows || overflowsToo ? Decimal(high) * 4_294_967_296 + Decimal(low) : Decimal(bytes))
    }
}
