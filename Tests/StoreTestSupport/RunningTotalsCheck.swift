import Foundation
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite
import Testing

/// The running totals against the records, on any store: every filter the totals hold, in zones whose days are cut
/// by whole hours, half hours, quarter hours and odd minutes, by every period.
public enum RunningTotalsCheck {
    public static let zones = [
        "UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe",
        "America/Sao_Paulo", "Europe/Amsterdam",
    ]
    /// Filters the totals hold, alone and together; the windows start and end inside days, on local midnights and
    /// at times of day no zone has as midnight.
    public static let filters: [[(name: String, value: String)]] = [
        [], [("type", "pdf")], [("type", "image,zip")], [("date", "2021-03-14")], [("date", "2021-11-07"), ("type", "pdf,doc")],
        [("from", "2021-03-01"), ("to", "2021-11-30")], [("from", "1937-01-01T07:13:00Z"), ("to", "2021-10-31T01:30:00+02:00")],
        [("from", "2021-06-01"), ("type", "image")], [("to", "1965-12-31")], [("trashed", "true")],
        [("trashed", "true"), ("type", "txt"), ("from", "2021-01-01")], [("folder", "/"), ("recursive", "true")],
    ]

    /// Every filter of `filters`, in every zone of `zones`, by every period: `history`'s statistics from its running
    /// totals against those counted from its records, compared as the JSON a client reads.
    public static func compareEveryQuery(
        _ history: any HistoryStore, _ label: String, zones: [String] = zones, filters: [[(name: String, value: String)]] = filters
    ) async throws {
        let encoder = WireJSON.encoder()
        for zone in zones {
            let calendar = try #require(ZonedCalendar(identifier: zone))
            for filter in filters {
                let query = try ShareQuery(parameters: filter, defaultZone: calendar)
                #expect(StatisticsFromTotals.canAnswer(query))
                for period in [nil] + StatsPeriod.allCases {
                    let (fromTotals, fromRecords) = try await statisticsBothWays(history, query, by: period)
                    let same = try encoder.encode(fromTotals) == encoder.encode(fromRecords)
                    #expect(same, "\(label) \(zone) \(filter) by \(period?.rawValue ?? "default"): \(fromTotals) against \(fromRecords)")
                }
            }
        }
    }

    /// The rows of the store's running totals, in every history, that are not what its records add up to.
    public static func totalsThatDiffer(_ store: any ShareStore) async throws -> Int {
        switch store {
        case let sqlite as SQLiteStore: try await sqlite.totalsThatDiffer()
        case let postgres as PostgresStore: try await postgres.totalsThatDiffer()
        default: throw UnknownStore(kind: "\(type(of: store))")
        }
    }

    private static func statisticsBothWays(
        _ history: any HistoryStore, _ query: ShareQuery, by period: StatsPeriod?
    ) async throws -> (fromTotals: ShareStats, fromRecords: ShareStats) {
        switch history {
        case let sqlite as SQLiteHistory: try await sqlite.statisticsBothWays(query, by: period)
        case let postgres as PostgresHistory: try await postgres.statisticsBothWays(query, by: period)
        default: throw UnknownStore(kind: "\(type(of: history))")
        }
    }

    /// A store this check does not know how to ask: a new store adds its case here.
    struct UnknownStore: Error {
        let kind: String
    }
}
