import Foundation
import ShareHistory
import ShareKit

/// The listing's dimensions (dates, types, folders, texts, link states), their values over `GridHistory`'s shapes, the sorts, and
/// the combinations that cross every pair: what the listing grids of both stores walk through.
public enum GridCombinations {
    /// A filter of one dimension: its query parameters, the same rule as plain SQL, and whether an index reads
    /// its matches by themselves (the trigram index, for text of any length). Of text of several words, an index
    /// reads each word's matches (`words`), the fewest of which a read can start from.
    public struct Filter: Sendable {
        public let label: String
        public let parameters: [(String, String)]
        public let sql: String
        public let indexed: Bool
        public var words: [String] = []
    }

    public static let dates: [Filter] = [
        Filter(label: "", parameters: [], sql: "1", indexed: false),
        day("2023-06-15", label: "the busiest day"), day("2022-03-03", label: "a day"),
        Filter(
            label: "a day in Shanghai", parameters: [("date", "2022-03-03"), ("tz", "Asia/Shanghai")],
            sql: "created_at >= \(ms("2022-03-02T16:00:00Z")) AND created_at < \(ms("2022-03-03T16:00:00Z"))", indexed: true),
        range("2022-03-01", "2022-03-07", label: "a week"), range("2024-02-01", "2024-02-29", label: "a month"),
        range("2022-01-01", "2022-12-31", label: "a year"),
        Filter(label: "since June 2025", parameters: [("from", "2025-06-01")], sql: "created_at >= \(ms("2025-06-01T00:00:00Z"))", indexed: true),
        Filter(label: "until January 2021", parameters: [("to", "2021-01-31")], sql: "created_at < \(ms("2021-02-01T00:00:00Z"))", indexed: true),
    ]

    public static let types: [Filter] = [
        Filter(label: "", parameters: [], sql: "1", indexed: false),
        Filter(label: "pdf", parameters: [("type", "pdf")], sql: "type = 'pdf'", indexed: true),
        Filter(label: "pdf,doc", parameters: [("type", "pdf,doc")], sql: "type IN ('pdf', 'doc')", indexed: true),
        Filter(label: "audio (2021 only)", parameters: [("type", "audio")], sql: "type = 'audio'", indexed: true),
        Filter(label: "image,video,audio", parameters: [("type", "image,video,audio")], sql: "type IN ('image', 'video', 'audio')", indexed: true),
        Filter(label: "other (none)", parameters: [("type", "other")], sql: "type = 'other'", indexed: true),
    ]

    public static let folders: [Filter] = [
        Filter(label: "", parameters: [], sql: "1", indexed: false),
        Filter(label: "/reports", parameters: [("folder", "/reports")], sql: "folder = '/reports'", indexed: true),
        Filter(
            label: "/reports and below", parameters: [("folder", "/reports"), ("recursive", "true")],
            sql: "(folder = '/reports' OR substr(folder, 1, 9) = '/reports/')", indexed: true),
        Filter(label: "/archive (2021 only)", parameters: [("folder", "/archive")], sql: "folder = '/archive'", indexed: true),
        Filter(label: "/tiny", parameters: [("folder", "/tiny")], sql: "folder = '/tiny'", indexed: true),
        Filter(
            label: "/reports/2021 and below", parameters: [("folder", "/reports/2021"), ("recursive", "true")],
            sql: "(folder = '/reports/2021' OR substr(folder, 1, 14) = '/reports/2021/')", indexed: true),
    ]

    public static let texts: [Filter] = [
        Filter(label: "", parameters: [], sql: "1", indexed: false),
        text("report"), text("zebra"), text("nomatchatall"),
        text("e"), text("zq"), text("年度"),
        // Words in any order: two common ones, a rare one among common ones, two of one character.
        text("report 12"), text("pdf draft zebra"), text("e 1"),
    ]

    /// Link states as the record's `state` says them, at the time the grid is made (no link of `GridHistory` changes
    /// state for years either side).
    public static let states: [Filter] = {
        let now = Timestamp.now().millisecondsSinceEpoch
        let revoked = "link_token IS NOT NULL AND revoked_at IS NOT NULL"
        let expired = """
            link_token IS NOT NULL AND revoked_at IS NULL AND (expires_at <= \(now) OR (max_downloads IS NOT NULL AND downloads >= max_downloads))
            """
        let active = """
            link_token IS NOT NULL AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > \(now)) \
            AND (max_downloads IS NULL OR downloads < max_downloads)
            """
        return [
            Filter(label: "", parameters: [], sql: "1", indexed: false),
            Filter(label: "active", parameters: [("state", "active")], sql: "(\(active))", indexed: true),
            Filter(label: "expired", parameters: [("state", "expired")], sql: "(\(expired))", indexed: true),
            Filter(label: "revoked", parameters: [("state", "revoked")], sql: "(\(revoked))", indexed: true),
            Filter(label: "expired,revoked", parameters: [("state", "expired,revoked")], sql: "((\(expired)) OR (\(revoked)))", indexed: true),
        ]
    }()

    public static let sorts: [(sort: String, order: String, column: String)] = [
        ("createdAt", "desc", "created_at"), ("createdAt", "asc", "created_at"), ("name", "asc", "name_key"),
        ("name", "desc", "name_key"), ("size", "desc", "size"), ("size", "asc", "size"), ("downloads", "desc", "downloads"),
        ("downloads", "asc", "downloads"),
    ]

    public static func day(_ day: String, label: String) -> Filter {
        let start = ms(day + "T00:00:00Z")
        return Filter(
            label: label, parameters: [("date", day)],
            sql: "created_at >= \(start) AND created_at < \(start + Timestamp.millisecondsPerDay)", indexed: true)
    }

    public static func range(_ from: String, _ to: String, label: String) -> Filter {
        Filter(
            label: label, parameters: [("from", from), ("to", to)],
            sql: "created_at >= \(ms(from + "T00:00:00Z")) AND created_at < \(ms(to + "T00:00:00Z") + Timestamp.millisecondsPerDay)",
            indexed: true)
    }

    public static func text(_ text: String) -> Filter {
        let words = SearchWords.pieces(of: text).map { "instr(name_key, '\($0)') > 0" }
        return Filter(
            label: "q=\(text)", parameters: [("q", text)], sql: words.joined(separator: " AND "), indexed: true,
            words: words.count > 1 ? words : [])
    }

    public static func ms(_ time: String) -> Int64 {
        Int64(ISO8601DateFormatter().date(from: time)!.timeIntervalSince1970 * 1000)
    }

    /// Every pair of dimensions crossed in full (the others left out), so that each value meets each other
    /// dimension's values; the trash with each value alone.
    public static var combinations: [(filters: [Filter], trashed: Bool)] {
        let dimensions = [dates, types, folders, texts, states]
        var combinations: [[Filter]] = []
        for first in dimensions.indices {
            for second in dimensions.indices where second > first {
                for a in dimensions[first] {
                    for b in dimensions[second] where !(a.sql == "1" && b.sql == "1" && first + second > 1) {
                        combinations.append([a, b])
                    }
                }
            }
        }
        let alone = dimensions.flatMap { $0.filter { $0.sql != "1" } }.map { [$0] } + [[]]
        return combinations.map { ($0, false) } + alone.map { ($0, true) }
    }
}
