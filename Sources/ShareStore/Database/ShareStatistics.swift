import Foundation
import GRDB
import ShareKit

/// Counts and bytes of the records a query matches: in total, per icon category, per local day.
struct ShareStatistics {
    let query: ShareQuery

    /// Far enough back that every instant since the year 0000, moved to local time, is positive.
    private static let dayBias: Int64 = 1_000_000

    func fetch(_ db: Database) throws -> ShareStats {
        let filter = ShareFilter(query, name: NameCondition(everyMatchOf: query.nameContains))
        let bounds = try Row.fetchOne(
            db, sql: "SELECT min(created_at), max(created_at) FROM share WHERE \(filter.whereClause)",
            arguments: StatementArguments(filter.arguments))
        guard let first = bounds?[0] as Int64?, let last = bounds?[1] as Int64? else {
            return ShareStats(count: 0, bytes: 0, types: [:], days: [])
        }
        let (dayExpression, dayArguments) = localDay(from: first, through: last)
        // Sizes go up to 2^63, so each is summed as two 32-bit halves, which cannot overflow; Decimal joins them.
        let sql = """
            SELECT type, \(dayExpression) AS day, count(*), sum(size >> 32), sum(size & 4294967295)
            FROM share WHERE \(filter.whereClause) GROUP BY type, day
            """
        var stats = ShareStats(count: 0, bytes: 0, types: [:], days: [])
        var days: [Int64: ShareStats.Total] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(dayArguments + filter.arguments))
        while let row = try rows.next() {
            let count: Int = row[2]
            let high: Int64 = row[3]
            let low: Int64 = row[4]
            let bytes = Decimal(high) * 4_294_967_296 + Decimal(low)
            stats.count += count
            stats.bytes += bytes
            stats.types[row[0], default: ShareStats.Total()].add(count: count, bytes: bytes)
            days[row[1], default: ShareStats.Total()].add(count: count, bytes: bytes)
        }
        stats.days = days.sorted { $0.key < $1.key }.map { day, total in
            ShareStats.Day(day: CalendarDay(daysSinceEpoch: day - Self.dayBias).description, count: total.count, bytes: total.bytes)
        }
        return stats
    }

    /// `created_at` as a local day number (plus `dayBias`), with the zone's offsets between `first` and `last`.
    private func localDay(from first: Int64, through last: Int64) -> (String, [any DatabaseValueConvertible]) {
        let offsets = query.zone.offsets(
            from: Timestamp(millisecondsSinceEpoch: first), through: Timestamp(millisecondsSinceEpoch: last))
        var cases = ""
        var arguments: [any DatabaseValueConvertible] = []
        var current = offsets.initial
        for change in offsets.changes {
            cases += "WHEN created_at < ? THEN ? "
            arguments += [change.at, current]
            current = change.offset
        }
        let offset = cases.isEmpty ? "?" : "CASE \(cases)ELSE ? END"
        arguments.append(current)
        // The bias goes in before dividing: integer division rounds toward zero, which would misplace times before 1970.
        let biased = Self.dayBias * Timestamp.millisecondsPerDay
        return ("((created_at + \(offset) + \(biased)) / \(Timestamp.millisecondsPerDay))", arguments)
    }
}

extension ShareStats.Total {
    mutating func add(count: Int, bytes: Decimal) {
        self.count += count
        self.bytes += bytes
    }
}
