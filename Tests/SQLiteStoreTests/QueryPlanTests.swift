import Foundation
import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Synchronization
import Testing

@testable import ShareSQLite

/// Every query shape of `GET /share` must use an index: a regression to a full table scan fails here.
@Suite struct QueryPlanTests {
    private static let shapes: [(name: String, parameters: [(String, String)])] = [
        ("newest first", []),
        ("one day", [("date", "2021-01-17")]),
        ("one day in a zone", [("date", "2021-01-17"), ("tz", "Asia/Shanghai")]),
        ("a range", [("from", "2021-01-01"), ("to", "2021-03-31")]),
        ("search", [("q", "report")]),
        ("one type", [("type", "pdf")]),
        ("one type by name", [("type", "pdf"), ("sort", "name"), ("order", "asc")]),
        ("one type by size", [("type", "pdf"), ("sort", "size")]),
        ("a folder", [("folder", "/reports")]),
        ("a folder by name", [("folder", "/reports"), ("sort", "name")]),
        ("a folder by size", [("folder", "/reports"), ("sort", "size"), ("order", "asc")]),
        ("a folder tree", [("folder", "/reports"), ("recursive", "true")]),
        ("by size", [("sort", "size")]),
        ("by name", [("sort", "name"), ("order", "asc")]),
        ("by downloads", [("sort", "downloads")]),
        ("one type by downloads", [("type", "pdf"), ("sort", "downloads"), ("order", "asc")]),
        ("revoked links", [("state", "revoked")]),
        ("links that open, by name", [("state", "active"), ("sort", "name")]),
        ("expired links by downloads", [("state", "expired"), ("sort", "downloads")]),
        ("second page", [("cursor", ShareCursor(sort: .createdAt, order: .desc, value: .integer(1_610_000_000_000), id: "ABCD1234").encoded)]),
        ("second page by name", [("sort", "name"), ("cursor", ShareCursor(sort: .name, order: .desc, value: .text("m"), id: "ABCD1234").encoded)]),
        ("the trash", [("trashed", "true")]),
    ]

    private func query(_ parameters: [(String, String)]) throws -> ShareQuery {
        try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
    }

    private func plan(of statement: SQL, in queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            try SQLRequest<Row>(literal: "EXPLAIN QUERY PLAN \(statement)").fetchAll(db).map { $0["detail"] as String }
        }
    }

    /// Whether a step of a plan reads `index`.
    private func uses(_ index: String, _ step: String) -> Bool {
        step.hasSuffix("INDEX \(index)") || step.contains("INDEX \(index) ")
    }

    /// Each shape, with a date range, a text, two types, and a folder with its subfolders added in turn.
    private static var combinations: [(name: String, parameters: [(String, String)])] {
        let additions: [(String, [(String, String)])] = [
            ("", []), (" in a range", [("from", "2021-01-01"), ("to", "2021-03-31")]), (" with text", [("q", "report")]),
            (" of two types", [("type", "pdf,doc")]), (" in a tree", [("folder", "/reports"), ("recursive", "true")]),
        ]
        return shapes.flatMap { shape in
            additions.compactMap { (suffix, parameters) in
                let names = Set(shape.parameters.map(\.0))
                guard !parameters.contains(where: { names.contains($0.0) }) else { return nil }
                return (shape.name + suffix, shape.parameters + parameters)
            }
        }
    }

    /// Every read of every combination seeks its own index, and an ordered read takes its order from the index:
    /// were SQLite to sort instead, it would read every row before the first, and a budget would mean nothing.
    @Test func everyReadSeeksItsIndexAndOrderedReadsNeverSort() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        for index in 0..<50 { try await database.sharedHistory.add("report-\(index).pdf", folder: index % 2 == 0 ? "/reports" : "/other") }
        let queue = try DatabaseQueue(path: path)
        for shape in Self.combinations where !shape.parameters.contains(where: { $0 == ("trashed", "true") }) {
            let listing = SQLiteListing(query: try query(shape.parameters))
            let reads = try await queue.read { db in try ListingPlanner(listing).reads(db) }
            let resume = try await queue.read { db in try someKey(listing.query.sort, db) }
            for case .ordered(let read) in reads {
                // From the start, and resumed after a row.
                for seek in read.seeks {
                    let statements = [
                        read.orderedRows(seek, after: nil, listing), read.orderedRows(seek, after: resume, listing),
                    ]
                    for statement in statements {
                        let steps = try plan(of: statement, in: queue)
                        #expect(steps.contains { uses(read.index, $0) }, "\(shape.name): \(steps)")
                        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(shape.name): \(steps)")
                    }
                }
            }
            for case .unordered(let read) in reads {
                // Its matches, and the count of its rows that tells whether it fits a round.
                for seek in read.seeks {
                    for statement in [read.matches(seek, listing), read.countingRows(seek, upTo: 10)] {
                        let steps = try plan(of: statement, in: queue)
                        #expect(steps.contains { uses(read.index, $0) }, "\(shape.name): \(steps)")
                    }
                }
            }
        }
    }

    /// `share_by_owner` keeps a history in stored order for exports; were another read to take it for its owner
    /// alone, it would walk every record of the history (a million, for a big one) instead of its filter's index.
    @Test func onlyExportsReadTheOwnersStoredOrder() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue).history(of: "alice", quota: nil)
        for index in 0..<50 {
            let record = try await database.add("report-\(index).pdf", folder: index % 2 == 0 ? "/reports" : "/reports/2021")
            if index % 5 == 0 { try await database.trashShare(id: record.id) }
        }
        let statements = Mutex<Set<String>>([])
        try await queue.write { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { _ = statements.withLock { $0.insert(statement.expandedSQL) } }
            }
        }
        for shape in Self.combinations {
            let parameters = shape.parameters.map { (name: $0.0, value: $0.1) }
            let listing = try ShareQuery(parameters: parameters, defaultZone: ZonedCalendar(identifier: "UTC")!)
            _ = try await database.listShares(listing)
            _ = try await database.stats(listing, by: nil)
        }
        let export = statements.withLock { $0 }.count
        _ = try await database.exportChunk(after: 0, limit: 10, includingTrash: true)
        let all = statements.withLock { $0 }
        #expect(all.count > export, "the export's statement was seen")
        for sql in all where sql.hasPrefix("SELECT") || sql.hasPrefix("WITH") {
            let steps = try await queue.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String } }
            let readsStoredOrder = steps.contains { uses("share_by_owner", $0) }
            #expect(readsStoredOrder == sql.contains("owner >= 0"), "\(sql): \(steps)")
        }
    }

    /// The sort key of some row, to resume a read after.
    private func someKey(_ sort: ListingSort, _ db: Database) throws -> SortKey? {
        var key: SortKey?
        let statement = try db.makeStatement(sql: "SELECT seq, \(SQLiteListing.column(for: sort)), id FROM share LIMIT 1")
        try StatementColumns.forEachRow(of: statement, arguments: []) { row in
            key = SortKey(row, sort: sort, column: 1)
            return false
        }
        return key
    }

    /// A listing served by one index whole (no row to test) is that index's read, in order.
    @Test func servedShapesReadOneIndexInOrder() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        var served: [String] = []
        for shape in Self.shapes {
            let listing = SQLiteListing(query: try query(shape.parameters))
            let planner = ListingPlanner(listing)
            guard !listing.query.trashed, planner.orderedReads().contains(where: \.answersEveryFilter) else { continue }
            served.append(shape.name)
            let steps = try plan(of: try queue.read { db in try planner.statement(db) }, in: queue)
            #expect(steps.contains { $0.contains("INDEX share_live_by_") }, "\(shape.name): \(steps)")
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(shape.name): \(steps)")
        }
        #expect(served.count == 14, "\(served)")
    }

    /// A read of candidates takes just those rows by key, whatever index the other filters have.
    @Test func candidatesAreReadByKey() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        for shape in Self.shapes where !shape.parameters.contains(where: { $0.0 == "q" }) {
            let listing = SQLiteListing(query: try query(shape.parameters + [("q", "budget")]))
            for statement in [listing.statement(among: [3, 1, 2]), listing.keyedRows(matching: ["budget"])] {
                let steps = try plan(of: statement, in: queue)
                #expect(steps.contains { $0.hasPrefix("SEARCH share USING INTEGER PRIMARY KEY") }, "\(shape.name): \(steps)")
            }
        }
    }

    /// Text and folder are tested where they already are: read in order by time, size or name, the names (and
    /// by size or name, the folders) come from the sort's index, without a single read of the table (SQLite's plan says "INDEX", not "COVERING INDEX",
    /// because of the partial index's condition, so the program itself is checked).
    @Test func orderedSearchesReadOnlyTheIndex() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let folder = ("folder", "/reports")
        for parameters in [[], [("sort", "size"), folder], [("sort", "name"), ("order", "asc"), folder], [("date", "2021-01-17")]] {
            let listing = SQLiteListing(query: try query(parameters + [("q", "report")]))
            let read = ListingPlanner(listing).orderedReads().last!
            let statement = read.orderedRows(read.seeks[0], after: nil, listing)
            #expect(try !readsTableColumns(statement, in: queue), "\(parameters)")
        }
    }

    /// With text, a folder's read by name looks up in the table only the rows whose names the trigram index holds:
    /// in a folder of 2,000 records of which 5 hold the text, it costs what reading 2,000 index entries does rather
    /// than 2,000 lookups, and finds the same page.
    @Test func aFoldersReadWithTextLooksUpOnlyTheNamedRows() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let session = try await database.sharedHistory.beginImport()
        let records = try (1...2_000).map { line in
            (
                line: line,
                share: try NewShare(
                    id: nil, name: line % 400 == 0 ? "report \(line).pdf" : "photo \(line).jpg", folder: "/big", createdAt: nil, size: 1)
            )
        }
        _ = try await session.stage(records)
        _ = try await session.finish()
        let queue = try DatabaseQueue(path: path)
        let counter = WorkCounter()
        try await queue.write { db in counter.install(on: db) }
        let listing = SQLiteListing(query: try query([("folder", "/big"), ("q", "report"), ("sort", "name")]))
        let planner = ListingPlanner(listing)
        // For each of the folder's two reads, whether it reads among the named rows: its work and its page.
        let measured = try await queue.read { db in
            try planner.reads(db).reduce(into: [Bool: (work: Int, names: [String])]()) { measured, read in
                guard case .unordered(let indexRead) = read else { return }
                counter.reset()
                let statement = try planner.statement(of: read, db)
                let work = counter.total
                measured[indexRead.amongNamed] = (work, try listing.page(statement, db).records.map(\.name))
            }
        }
        let (named, plain) = try (#require(measured[true]), #require(measured[false]))
        #expect(named.work * 3 < plain.work, "among the named rows \(named.work) of work, every row \(plain.work)")
        #expect(named.names == plain.names && named.names.count == 5)
    }

    /// An index's columns by name; the expressions a link's state is made of are `state`.
    private static let indexColumns = "SELECT coalesce(name, 'state') FROM pragma_index_info(?)"

    /// The planner's list of what each index holds is the schema's: were it wrong, a read that looks rows up in the
    /// table would be taken for one that does not (or the reverse), and the work of its rows misjudged eightfold.
    @Test func thePlannerKnowsWhatEachIndexHolds() async throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let schema = try await queue.read { db in
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'share_live_by_%'")
            return try Dictionary(
                uniqueKeysWithValues: names.map { name in
                    (name, Set(try String.fetchAll(db, sql: Self.indexColumns, arguments: [name])).subtracting(["id"]))
                })
        }
        #expect(schema == ListingPlanner.heldColumns)
    }

    /// Whether the compiled statement reads any column from the `share` table itself rather than from an index.
    private func readsTableColumns(_ statement: SQL, in queue: DatabaseQueue) throws -> Bool {
        try queue.read { db in
            let table = try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'share'")
            let program = try SQLRequest<Row>(literal: "EXPLAIN \(statement)").fetchAll(db)
            let tableCursors = Set(program.filter { $0["opcode"] == "OpenRead" && $0["p2"] == table }.map { $0["p1"] as Int })
            return program.contains { $0["opcode"] == "Column" && tableCursors.contains($0["p1"] as Int) }
        }
    }
}
