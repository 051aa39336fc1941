import Foundation
import GRDB
import Logging
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres
@testable import ShareSQLite

/// The combination grid of `ListingGridTests`, asked of both stores holding the same history: every page must be
/// the same bytes and end at the same cursor on PostgreSQL as on SQLite (so that a client moved from one to the
/// other pages on, and its cursors stay good), and PostgreSQL must find an index that answers each within a small
/// multiple of the rows the better read needs, counted from its plan as it ran (rows are counted, not time). Were
/// they to differ, a team that outgrew SQLite would see its listings change order or lose rows between pages; were
/// an index missing, a search would read the whole table.
@Suite struct PostgresGridTests {
    @Test func everyCombinationGivesTheSamePagesOnBothStoresFromAnIndex() async throws {
        try await TestPostgres.withStore { postgres in
            let sqlite = try SQLiteStore.temporary()
            for store in [sqlite as any ShareStore, postgres] {
                try await GridHistory.fill(store.history(of: "grid", quota: nil), records: 20_000, idSeed: 1)
                try await GridHistory.fill(store.history(of: "neighbour", quota: nil), records: 5_000, idSeed: 2)
            }
            // As autovacuum leaves it, sooner or later: the name indexes' pending entries merged (PostgreSQL prices a
            // search by what is still pending), the planner's statistics taken. Plans are then the same every run.
            try await postgres.execute("VACUUM ANALYZE")
            let grid = try #require(try await postgres.values("SELECT id FROM share_user WHERE name = 'grid'", as: Int64.self).first)
            let sqliteGrid = try await sqlite.writer.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = 'grid'")! }
            var closest = (ratio: 0.0, label: "")
            let trash = try await sqlite.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE owner = \(sqliteGrid) AND trashed_at IS NOT NULL")!
            }
            let utc = ZonedCalendar(identifier: "UTC")!
            var requests = 0
            for combination in GridCombinations.combinations {
                for sort in GridCombinations.sorts {
                    let filters = combination.filters.filter { $0.sql != "1" }
                    let label = (filters.map(\.label) + [combination.trashed ? "trashed" : "", "sort=\(sort.sort) \(sort.order)"])
                        .filter { !$0.isEmpty }.joined(separator: ", ")
                    let parameters =
                        filters.flatMap(\.parameters) + (combination.trashed ? [("trashed", "true")] : []) + [
                            ("sort", sort.sort), ("order", sort.order),
                        ]
                    var query = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: utc)
                    let live = "owner = \(sqliteGrid) AND trashed_at IS \(combination.trashed ? "NOT NULL" : "NULL")"
                    let singleCounts = try await sqlite.writer.read { db in
                        try filters.filter(\.indexed).map { filter in
                            try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE \(live) AND \(filter.sql)")!
                        }
                    }
                    // The first page, then the second from its cursor.
                    for page in 1...2 {
                        let expected = try await sqlite.history(of: "grid", quota: nil).listShares(query)
                        let answered = try await postgres.history(of: "grid", quota: nil).listShares(query)
                        requests += 1
                        #expect(Self.tokensMasked(answered.body) == Self.tokensMasked(expected.body), "\(label), page \(page)")
                        #expect(answered.next == expected.next, "\(label), page \(page): the cursor")
                        let examined = try await rowsExamined(by: query, owner: grid, postgres)
                        let ordered = try await orderedRows(sqlite, live: live, sort: sort.column, from: query.cursor, to: expected.next)
                        // The trash has one index, by time of trashing, and is read whole: its size is the best a read can do.
                        let best = combination.trashed ? trash : (singleCounts + [ordered]).min()!
                        #expect(examined <= Self.rowBound(best: best), "\(label), page \(page): \(examined) rows read, best read \(best) rows")
                        let ratio = Double(examined) / Double(Self.rowBound(best: best))
                        if ratio > closest.ratio { closest = (ratio, "\(label), page \(page): \(examined) rows read, best read \(best)") }
                        guard let next = expected.next else { break }
                        query.cursor = next
                    }
                }
            }
            print("store conformance grid: \(requests) requests, the same on both stores; the closest to its bound: \(closest.label)")
        }
    }

    /// A page's JSON with each link's token (drawn by each store for itself) left out.
    private static func tokensMasked(_ body: [UInt8]) -> String {
        String(decoding: body, as: UTF8.self).replacing(/"link":"\/s\/[A-Za-z0-9_-]+"/, with: #""link":"/s/…""#)
    }

    /// The most rows PostgreSQL may read for a page of 100 whose better read touches `best` rows. PostgreSQL's
    /// planner chooses by its estimates, which cannot know how the history's dimensions go together (the names in
    /// 年度 sort last, audio is all in 2021): measured when written, its choices read up to 37 times the page and
    /// the better read's rows (q=年度 with three types, sorted by name, read through the names' index entries and
    /// sorted, where reading the name index from its end finds the page at once). A filter without an index to
    /// answer it would read the whole history, hundreds of times more where the better read is small.
    static func rowBound(best: Int) -> Int {
        40 * (101 + best)
    }

    /// Rows an ordered read of the sort's index touches for the page between the cursors `start` and `end`: up to
    /// the page's last row, or to the end of the history when no page follows.
    private func orderedRows(
        _ sqlite: SQLiteStore, live: String, sort column: String, from start: ShareCursor?, to end: ShareCursor?
    ) async throws -> Int {
        try await sqlite.writer.read { db in
            var conditions = [live]
            var arguments: [(any DatabaseValueConvertible)?] = []
            for (cursor, comparison) in [(start, ">"), (end, "<=")] {
                guard let cursor else { continue }
                let descending = cursor.order == .desc
                let compare = descending ? (comparison == ">" ? "<" : ">=") : comparison
                conditions.append("(\(column), id COLLATE NOCASE) \(compare) (?, ?)")
                switch cursor.value {
                case .integer(let number): arguments.append(number)
                case .text(let text): arguments.append(text)
                }
                arguments.append(cursor.id)
            }
            let sql = "SELECT count(*) FROM share WHERE \(conditions.joined(separator: " AND "))"
            return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)!)!
        }
    }

    /// The rows PostgreSQL read for the listing of `query`, as it ran (`EXPLAIN ANALYZE`): what each scan returned
    /// and what its filter or recheck threw away, in every loop. Sequential scans are priced out: on a table of
    /// this test's size the planner may rightly prefer reading it whole, but at a million records it must have an
    /// index that answers within the bound.
    private func rowsExamined(by query: ShareQuery, owner: Int64, _ store: PostgresStore) async throws -> Int {
        let statement = try PostgresListing(query: query, owner: owner).statement()
        let explain = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + statement.text, binds: statement.binds)
        let logger = Self.logger
        // On a connection whose statements may take their time, as the store's own.
        let plan = try await store.lease(statementTimeout: 0) { connection in
            try await connection.query("SET enable_seqscan = off", logger: logger)
            var plan = ""
            for try await line in try await connection.query(explain, logger: logger).decode(String.self) { plan += line }
            try await connection.query("RESET enable_seqscan", logger: logger)
            return plan
        }
        let explained = try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [[String: Any]]
        let root = try #require(explained?.first?["Plan"] as? [String: Any])
        func rows(_ node: [String: Any]) -> Int {
            let children = (node["Plans"] as? [[String: Any]] ?? []).reduce(0) { $0 + rows($1) }
            guard (node["Node Type"] as? String)?.hasSuffix("Scan") == true else { return children }
            let kept = node["Actual Rows"] as? Int ?? 0
            let removed = (node["Rows Removed by Filter"] as? Int ?? 0) + (node["Rows Removed by Index Recheck"] as? Int ?? 0)
            return children + (kept + removed) * (node["Actual Loops"] as? Int ?? 1)
        }
        return rows(root)
    }

    private static let logger = Logger(label: "grid")
}
