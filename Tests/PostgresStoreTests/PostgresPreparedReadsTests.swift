import PostgresNIO
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareHistory
@testable import SharePostgres

/// The plain pages and the history's tag are statements each connection prepares once: PostgreSQL plans them once,
/// not at every request. A preparation that fails must not stay with its connection.
@Suite struct PostgresPreparedReadsTests {
    @Test func theAppsReadsArePreparedStatements() async throws {
        try await TestPostgres.withStore { store in
            // Months apart: in a zone off UTC, each month starts within a UTC day the statistics read by quarter hours.
            for (index, day) in ["2021-01-17", "2021-03-09", "2021-05-30"].enumerated() {
                try await store.sharedHistory.add("report-\(index).pdf", size: 3, at: "\(day)T12:00:00Z")
            }
            var query = ShareQuery()
            let newest = try #require(try await store.sharedHistory.listShares(query).records.first)
            query.cursor = ShareCursor(sort: .createdAt, order: .desc, value: .integer(newest.createdAt.millisecondsSinceEpoch), id: newest.id)
            #expect(try await store.sharedHistory.listShares(query).records.count == 2)
            for zone in ["Asia/Kathmandu", "America/New_York"] {
                query = ShareQuery()
                query.zone = try #require(ZonedCalendar(identifier: zone))
                #expect(try await store.sharedHistory.stats(query, by: nil).periods.map(\.period) == ["2021-01", "2021-03", "2021-05"])
            }
            _ = try await store.sharedHistory.historyTag()
            // Were a read's SQL to drift from its prepared statement's, it would be planned at every request again,
            // unnoticed by anyone but the database.
            let prepared = store.prepared.marks.withLock { $0.values.reduce(into: Set<String>()) { $0.formUnion($1.prepared) } }
            let statistics: Set = ["share_statistics_basis", "share_statistics_quarter_hours"]
            #expect(prepared == statistics.union(["share_newest_page", "share_newest_page_after", "share_history_tag"]))
        }
    }

    /// PostgreSQL plans a prepared statement anew at every run while its generic plan looks costlier than the first
    /// five custom ones did, as the tag's did with `max()` and the newest page's with its limit a parameter: a fifth
    /// of a plain page's time in the server. (The pages after a cursor near the newest are planned for it: a custom
    /// plan knows that nearly every row lies before it.)
    @Test func theAppsReadsArePlannedOnceNotAtEveryRun() async throws {
        try await TestPostgres.withStore { store in
            // Planned for a history of some size (with a handful of rows every plan costs next to nothing) over
            // years, shown by the month, whose months start inside UTC days in New York: a read of quarter hours for
            // each month's start (with fewer than ten, a plan for the actual ends looks cheaper to PostgreSQL).
            let today = CalendarDay(daysSinceEpoch: Timestamp.now().millisecondsSinceEpoch / Timestamp.millisecondsPerDay)
            let months = (1...36).map { back in
                let month = today.year * 12 + today.month - 1 - back
                return CalendarDay(year: month / 12, month: month % 12 + 1, day: 17)!
            }
            for month in months {
                try await store.sharedHistory.add("report-\(month).pdf", size: 3, at: "\(month)T12:00:00Z")
            }
            try await store.importNames(20_000)
            let generic = try await store.lease(statementTimeout: 0) { connection in
                var statistics = ShareQuery()
                statistics.zone = try #require(ZonedCalendar(identifier: "America/New_York"))
                let page = try PostgresListing(query: ShareQuery(), owner: OwnerNumber.nobody).statement()
                for _ in 1...7 {
                    let tag = PostgresPreparedReads.HistoryTag(owner: OwnerNumber.nobody, now: .max)
                    for try await _ in try await store.prepared.execute(tag, on: connection, logger: store.logger) {}
                    for try await _ in try await store.prepared.rows(page, on: connection, logger: store.logger) {}
                    let answer = try await PostgresTotalsStatistics(query: statistics, owner: OwnerNumber.nobody)
                        .fetch(by: nil, connection, store.prepared, logger: store.logger)
                    #expect(answer.count == 20_000 + months.count)
                }
                var generic: [String: Int64] = [:]
                let plans = try await connection.query("SELECT name, generic_plans FROM pg_prepared_statements", logger: store.logger)
                for try await (name, count) in plans.decode((String, Int64).self) { generic[name] = count }
                return generic
            }
            let names = ["share_history_tag", "share_newest_page", "share_statistics_basis", "share_statistics_quarter_hours"]
            #expect(generic == Dictionary(uniqueKeysWithValues: names.map { ($0, 2) }), "runs six and seven of each, planned once")
        }
    }

    @Test func aConnectionWhosePreparationFailedSendsThePageUnprepared() async throws {
        try await TestPostgres.withStore { store in
            try await store.sharedHistory.add("a.pdf", size: 3)
            let page = try PostgresListing(query: ShareQuery(), owner: OwnerNumber.nobody).statement()
            let names = try await store.withLocked("share") { _, release in
                try await store.lease(statementTimeout: 50) { connection in
                    // The connection's first plain page, behind a migration's lock: its preparation times out.
                    await #expect(throws: PSQLError.self) { _ = try await store.prepared.rows(page, on: connection, logger: store.logger) }
                    release()
                    // As a read does after a timeout: again on the same connection, with no limit. PostgresNIO would
                    // answer the prepared statement with the same timeout for as long as the connection lives.
                    try await store.sessions.limit(connection, toMilliseconds: 0, logger: store.logger)
                    var names: [String] = []
                    for try await row in try await store.prepared.rows(page, on: connection, logger: store.logger) {
                        names.append(try row.makeRandomAccess()[1].string())
                    }
                    return names
                }
            }
            #expect(names == ["a.pdf"])
        }
    }

    @Test func aPreparedTagWhoseTableChangedUnderItIsReadUnprepared() async throws {
        try await TestPostgres.withStore { store in
            let tag = try await store.sharedHistory.historyTag()
            let reread = try await store.lease(statementTimeout: 0) { connection in
                let statement = PostgresPreparedReads.HistoryTag(owner: OwnerNumber.nobody, now: 0)
                for try await _ in try await store.prepared.execute(statement, on: connection, logger: store.logger) {}
                // As another node's migration might: the prepared statement's result no longer has its column's type.
                try await store.execute("ALTER TABLE share_history ALTER COLUMN epoch TYPE varchar(200)")
                var epochs: [String] = []
                for try await row in try await store.prepared.execute(statement, on: connection, logger: store.logger) { epochs.append(row.0) }
                return epochs
            }
            #expect(reread.count == 1 && tag.hasPrefix(reread[0] + "-"))
        }
    }
}
