import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareSQLite

/// PostgreSQL's statistics from its running totals read only what they must. (That the totals stay the records' own
/// is the conformance suite's `StatisticsTests`.)
@Suite struct PostgresTotalsTests {
    /// Statistics over a window whose ends fall inside UTC days (New York's midnights) read no record: the
    /// hours' and quarter hours' totals hold the cut parts of those days. Rows counted by the server, not time.
    @Test func aWindowCutInsideDaysReadsNoRecord() async throws {
        try await TestPostgres.withStore { store in
            try await GridHistory.fill(store.sharedHistory, records: 20_000)
            let parameters = [("from", "2023-02-01"), ("to", "2023-11-30"), ("tz", "America/New_York")]
            let window = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
            let read = try await Self.rowsRead(of: ["share"], store, by: window, period: StatsPeriod.none)
            #expect(read == ["share": 0], "rows of share read")
        }
    }

    /// The days a zone's months cut are read by the hour where its midnights fall on whole hours (New York), and by
    /// the quarter hour only at the ends of those hours where they do not (Kathmandu, +5:45): half the rows. Rows
    /// counted by the server, not time.
    @Test func cutDaysAreReadByTheHour() async throws {
        try await TestPostgres.withStore { store in
            try await GridHistory.fill(store.sharedHistory, records: 20_000)
            let tables = ["share_total_hour", "share_total_quarter"]
            let newYork = try await Self.rowsRead(of: tables, store, by: Self.defaultView(in: "America/New_York"), period: nil)
            #expect(newYork["share_total_hour"]! > 0 && newYork["share_total_quarter"] == 0, "New York's rows: \(newYork)")
            let kathmandu = try await Self.rowsRead(of: tables, store, by: Self.defaultView(in: "Asia/Kathmandu"), period: nil)
            #expect(kathmandu["share_total_hour"]! > 0, "Kathmandu's rows: \(kathmandu)")
            // Each cut day's quarter hours: the three from 18:15 to 19:00 UTC, in at most as many rows per type.
            #expect(kathmandu["share_total_quarter"]! <= kathmandu["share_total_hour"]!, "Kathmandu's rows: \(kathmandu)")
        }
    }

    /// A zone far from UTC midnight (Chatham, +13:45 in summer: its months start at 10:15 UTC) reads most of each cut
    /// day by the six hours, and by the hour only beside them. Rows counted by the server, not time.
    @Test func cutDaysFarFromMidnightAreReadBySixHours() async throws {
        try await TestPostgres.withStore { store in
            try await GridHistory.fill(store.sharedHistory, records: 20_000)
            let tables = ["share_total_six_hours", "share_total_hour"]
            let chatham = try await Self.rowsRead(of: tables, store, by: Self.defaultView(in: "Pacific/Chatham"), period: nil)
            // An end's 10:15 to 24:00 are two six hours, an hour and three quarter hours: fewer hours' rows than six hours'.
            #expect(chatham["share_total_hour"]! < chatham["share_total_six_hours"]!, "Chatham's rows: \(chatham)")
        }
    }

    /// A range of quarter hours is split into the coarsest units it covers whole and the finer ones beside them, on
    /// either side and before 1970 too; one with finer units on both sides of a grain's is not read by that grain.
    @Test func aRangeOfQuarterHoursIsSplitIntoWholeUnits() {
        let day: Int64 = 96
        #expect(PostgresTotalsStatistics.split(41..<day) == [2..<4, 11..<12, 41..<44])
        #expect(PostgresTotalsStatistics.split(0..<58) == [0..<2, 12..<14, 56..<58])
        #expect(PostgresTotalsStatistics.split(-day + 41..<0) == [-2..<0, -13 ..< -12, -55 ..< -52])
        #expect(PostgresTotalsStatistics.split(-day..<0) == [-4..<0, 0..<0, 0..<0])
        #expect(PostgresTotalsStatistics.split(2..<24) == [1..<1, 1..<6, 2..<4])
        #expect(PostgresTotalsStatistics.split(2..<26) == [1..<1, 1..<1, 2..<26])
        #expect(PostgresTotalsStatistics.split(2..<3) == [1..<1, 1..<1, 2..<3])
    }

    private static func defaultView(in zone: String) throws -> ShareQuery {
        try ShareQuery(parameters: [(name: "tz", value: zone)], defaultZone: ZonedCalendar(identifier: "UTC")!)
    }

    /// The rows of each of `tables` (read whole or through indexes) that the statistics of `query` by `period` read, on
    /// a session without the quick lane's limit, whatever this machine's load, after the planner's statistics are
    /// refreshed (as autovacuum keeps them).
    private static func rowsRead(
        of tables: [String], _ store: PostgresStore, by query: ShareQuery, period: StatsPeriod?
    ) async throws -> [String: Int] {
        try await store.lease(statementTimeout: 0) { connection in
            _ = try await connection.query("ANALYZE", logger: Self.logger)
            let owner = try await store.sharedHistory.ownerNumber(connection)
            var read: [String: Int] = [:]
            for table in tables {
                read[table] = try await rowsRead(of: table, connection, store.prepared, by: query, period: period, owner: owner)
            }
            return read
        }
    }

    /// The rows of `table` the statistics of `query` read (whole or through indexes), as the server counts them in
    /// the transaction they run in: this connection's own, whatever other sessions do. The counts it kept of its
    /// earlier statements are sent first, so that the transaction's start from none.
    private static func rowsRead(
        of table: String, _ connection: PostgresConnection, _ prepared: PostgresPreparedStatements, by query: ShareQuery,
        period: StatsPeriod?, owner: Int64
    ) async throws -> Int {
        _ = try await connection.query("SELECT pg_stat_force_next_flush()", logger: logger)
        return try await connection.withTransaction(logger: logger) { connection in
            let stats = try await PostgresTotalsStatistics(query: query, owner: owner).fetch(by: period, connection, prepared, logger: logger)
            #expect(stats.count > 1000)
            // Read whole or through a bitmap, counted on the table; through an index, counted on that index.
            return try await single(
                """
                SELECT (pg_stat_get_xact_tuples_returned('\(table)'::regclass) + pg_stat_get_xact_tuples_fetched('\(table)'::regclass)
                    + (SELECT sum(pg_stat_get_xact_tuples_fetched(indexrelid)) FROM pg_index WHERE indrelid = '\(table)'::regclass))::bigint
                """,
                connection)
        }
    }

    private static func single(_ sql: String, _ connection: PostgresConnection) async throws -> Int {
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { return value }
        return -1
    }

    private static let logger = Logger(label: "postgres-totals-tests")
}
