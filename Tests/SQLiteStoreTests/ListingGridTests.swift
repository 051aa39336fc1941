import Foundation
import GRDB
import GRDBSQLite
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// Every combination of filters, sorts and pages the listing accepts, against a history of 100,000 records:
/// each page must equal a plain query's (no index, ORDER BY the sort then id), and SQLite's work for it, counted
/// as the planner counts it (SQLite's steps and the pages it fetched), must stay within a small multiple of what
/// the better of the reads that could answer it costs. Work is counted, not timed, so the bound holds on any
/// machine. Beside the history lives a neighbour's, of the same shapes: a read that let the owner go would show
/// its records, or pay for them.
@Suite struct ListingGridTests {
    @Test func everyCombinationMatchesAPlainQueryWithinItsWorkBound() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        try await GridHistory.fill(database.history(of: "grid", quota: nil), records: 100_000)
        try await GridHistory.fill(database.history(of: "neighbour", quota: nil), records: 30_000)
        let queue = try DatabaseQueue(path: path)
        let pool = try #require(database.writer as? DatabasePool)
        let second = SecondReader(pool: pool, isFree: { true })
        let counter = WorkCounter()
        try await queue.write { db in counter.install(on: db) }
        let utc = ZonedCalendar(identifier: "UTC")!
        let trigramCounts = TrigramCounts()
        // The trash has one index, by time of trashing, and is read whole: its size is the best a read can do.
        let grid = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = 'grid'")! }
        let trash = try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE owner = \(grid) AND trashed_at IS NOT NULL")!
        }
        var report: [(work: Int, best: Int, label: String)] = []
        var requests = 0
        for combination in GridCombinations.combinations {
            let filters = combination.filters.filter { $0.sql != "1" }
            let live = "owner = \(grid) AND trashed_at IS \(combination.trashed ? "NOT NULL" : "NULL")"
            let condition = ([live] + filters.map(\.sql)).joined(separator: " AND ")
            let singleCounts = try await queue.read { db in
                try filters.filter(\.indexed).map { filter in
                    try (filter.words.isEmpty ? [filter.sql] : filter.words).map { condition in
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM share WHERE \(live) AND \(condition)")!
                    }.min()!
                }
            }
            try await queue.write { db in
                try db.execute(sql: "DROP TABLE IF EXISTS temp.matches")
                try db.execute(
                    sql: "CREATE TEMP TABLE matches AS SELECT id, created_at, name_key, size, downloads FROM share NOT INDEXED WHERE \(condition)")
            }
            for sort in GridCombinations.sorts {
                let label = (filters.map(\.label) + [combination.trashed ? "trashed" : "", "sort=\(sort.sort) \(sort.order)"])
                    .filter { !$0.isEmpty }.joined(separator: ", ")
                let parameters =
                    filters.flatMap(\.parameters) + (combination.trashed ? [("trashed", "true")] : [])
                    + [("sort", sort.sort), ("order", sort.order)]
                var query = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: utc)
                let direction = sort.order.uppercased()
                let order = "ORDER BY \(sort.column) \(direction), id COLLATE NOCASE \(direction)"
                let expected = try await queue.read { db in
                    try String.fetchAll(db, sql: "SELECT id FROM temp.matches \(order) LIMIT 201")
                }
                // The first page, then the second from its cursor.
                for page in 0..<2 {
                    let listing = SQLiteListing(query: query, owner: grid, trigramCounts: trigramCounts)
                    counter.reset()
                    let result = try await queue.read { db in try listing.fetch(db) }
                    let work = counter.total
                    requests += 1
                    let ids = try result.records.map(\.id)
                    let reference = Array(expected.dropFirst(page * 100).prefix(100))
                    #expect(ids == reference, "\(label), page \(page + 1)")
                    if page == 0 {
                        // The same page when the ordered reads run on a second reader from the first round.
                        let beside = SQLiteListing(query: query, owner: grid, trigramCounts: trigramCounts, secondReader: second)
                        #expect(try await pool.read { db in try beside.fetch(db).records.map(\.id) } == reference, "\(label), beside")
                    }
                    let start = page * 100
                    let ordered = try await orderedReadRows(queue, live: live, sort: sort, expected: expected, from: start)
                    let best = combination.trashed ? trash : (singleCounts + [ordered]).min()!
                    #expect(work <= Self.workBound(best: best), "\(label), page \(page + 1): \(work) of work, best read \(best) rows")
                    report.append((work, best, "\(label), page \(page + 1)"))
                    guard let next = result.next else { break }
                    query.cursor = next
                }
            }
        }
        let worst = report.max {
            Double($0.work) / Double(Self.workBound(best: $0.best)) < Double($1.work) / Double(Self.workBound(best: $1.best))
        }!
        print("grid: \(requests) requests, the closest to its bound: \(worst.label), \(worst.work) of work, best read \(worst.best) rows")
    }

    /// The most work (`WorkBudget`) SQLite may do for a page of 100 whose better read touches `best` rows. A row
    /// read costs 15 of work (an index entry tested in place) to 120 (one looked up in the table too: three pages or
    /// so); the page itself is 101 rows. Round by round the budget grows fourfold, and the better read finishes in
    /// a round at most four times what it needs. Before it, the ordered reads had what the rounds gave them (each
    /// type's seek of a read of several types as much), and each read of every match was counted, at a third of its
    /// work at most: as much again. So eight times the dearest rows. Measured when written: the closest request used
    /// 60 to 65% of this, the ids (random) deciding how ties fall.
    static func workBound(best: Int) -> Int {
        8 * IndexRead.tableRowWork * (101 + best)
    }

    /// Rows an ordered read of the whole sort index touches for the page starting at match `start`: up to its
    /// last match, or to the end when fewer matches are left than a page and one more.
    private func orderedReadRows(
        _ queue: DatabaseQueue, live: String, sort: (sort: String, order: String, column: String),
        expected: [String], from start: Int
    ) async throws -> Int {
        try await queue.read { db in
            let comparison = sort.order == "asc" ? "<=" : ">="
            let after = sort.order == "asc" ? ">" : "<"
            func key(_ id: String) throws -> Row {
                try Row.fetchOne(db, sql: "SELECT \(sort.column) AS value, id FROM share WHERE id = ?", arguments: [id])!
            }
            var conditions = [live]
            var arguments: [DatabaseValueConvertible?] = []
            if start > 0, start - 1 < expected.count {
                let first = try key(expected[start - 1])
                conditions.append("(\(sort.column), id) \(after) (?, ?)")
                arguments += [first["value"] as DatabaseValue, first["id"] as String]
            }
            if start + 100 < expected.count {
                let last = try key(expected[start + 100])
                conditions.append("(\(sort.column), id) \(comparison) (?, ?)")
                arguments += [last["value"] as DatabaseValue, last["id"] as String]
            }
            return try Int.fetchOne(
                db, sql: "SELECT count(*) FROM share WHERE \(conditions.joined(separator: " AND "))",
                arguments: StatementArguments(arguments)!)!
        }
    }
}

/// Counts the work of every statement a connection runs, as `WorkBudget` measures it: SQLite's own count of its
/// virtual-machine steps, and `WorkBudget.pageWork` for each page it fetched.
final class WorkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var steps = 0
    private var connection: OpaquePointer?
    private var pagesAtReset: Int32 = 0

    func install(on db: Database) {
        connection = db.sqliteConnection
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            db.sqliteConnection, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, _ in
                guard let context, let statement else { return 0 }
                let counter = Unmanaged<WorkCounter>.fromOpaque(context).takeUnretainedValue()
                counter.add(Int(sqlite3_stmt_status(OpaquePointer(statement), SQLITE_STMTSTATUS_VM_STEP, 1)))
                return 0
            }, context)
    }

    private func add(_ count: Int) {
        lock.withLock { steps += count }
    }

    func reset() {
        lock.withLock {
            steps = 0
            pagesAtReset = connection.map(WorkBudget.fetchedPages) ?? 0
        }
    }

    var total: Int {
        lock.withLock {
            let pages = connection.map { WorkBudget.pages(from: pagesAtReset, to: WorkBudget.fetchedPages($0)) } ?? 0
            return steps + WorkBudget.pageWork * pages
        }
    }
}
