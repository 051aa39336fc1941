import Foundation
import GRDB
import ShareKit
import Testing

@testable import ShareStore

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
        ("second page", [("cursor", ShareCursor(sort: .createdAt, order: .desc, value: .integer(1_610_000_000_000), id: "ABCD1234").encoded)]),
        ("second page by name", [("sort", "name"), ("cursor", ShareCursor(sort: .name, order: .desc, value: .text("m"), id: "ABCD1234").encoded)]),
        ("the trash", [("trashed", "true")]),
    ]

    private func query(_ parameters: [(String, String)]) throws -> ShareQuery {
        try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
    }

    private func plan(_ parameters: [(String, String)], in queue: DatabaseQueue) throws -> [String] {
        try plan(of: ShareListing(query: try query(parameters)).statement(), in: queue)
    }

    private func plan(of statement: (String, StatementArguments), in queue: DatabaseQueue) throws -> [String] {
        let (sql, arguments) = statement
        return try queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    @Test func noQueryShapeScansTheTable() async throws {
        let path = try temporaryDatabasePath()
        let database = try ShareDatabase(path: path)
        for index in 0..<50 {
            try await database.add("report-\(index).pdf", folder: index % 2 == 0 ? "/reports" : "/other")
        }
        let queue = try DatabaseQueue(path: path)
        for shape in Self.shapes {
            let steps = try plan(shape.parameters, in: queue)
            let scans = steps.filter { $0 == "SCAN share" }
            #expect(scans.isEmpty, "\(shape.name): \(steps)")
            #expect(steps.contains { $0.contains("INDEX") || $0.contains("VIRTUAL TABLE") }, "\(shape.name): \(steps)")
        }
    }

    @Test func sortedShapesReadTheirIndexInOrderWithoutSorting() throws {
        let path = try temporaryDatabasePath()
        _ = try ShareDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        for shape in Self.shapes where shape.name != "search" && shape.name != "the trash" && shape.name != "a folder tree" {
            let steps = try plan(shape.parameters, in: queue)
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(shape.name): \(steps)")
        }
    }

    /// A search that found few candidates reads just those rows by key, whatever index its other filters have.
    @Test func candidatesAreReadByKey() throws {
        let path = try temporaryDatabasePath()
        _ = try ShareDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        for shape in Self.shapes where !shape.parameters.contains(where: { $0.0 == "q" }) {
            let listing = ShareListing(query: try query(shape.parameters + [("q", "budget")]))
            let steps = try plan(of: listing.statement(among: [3, 1, 2]), in: queue)
            #expect(steps.first?.contains("json_each") == true, "\(shape.name): \(steps)")
            #expect(steps.contains { $0.hasPrefix("SEARCH share USING INTEGER PRIMARY KEY") }, "\(shape.name): \(steps)")
        }
    }

    /// A common text is searched for by reading rows in order: newest first or by size or name, the names are
    /// read from the sort's index, without a single read of the table (SQLite's plan says "INDEX", not "COVERING
    /// INDEX", because of the partial index's condition, so the program itself is checked).
    @Test func orderedSearchesReadOnlyTheIndex() throws {
        let path = try temporaryDatabasePath()
        _ = try ShareDatabase(path: path)
        let queue = try DatabaseQueue(path: path)
        for parameters in [[], [("sort", "size")], [("sort", "name"), ("order", "asc")], [("date", "2021-01-17")]] {
            let listing = ShareListing(query: try query(parameters + [("q", "report")]))
            let statement = listing.orderedRead(of: "report")
            let steps = try plan(of: statement, in: queue)
            #expect(steps.contains { $0.contains("share USING INDEX share_live_by_") }, "\(parameters): \(steps)")
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(parameters): \(steps)")
            #expect(try !readsTableColumns(statement, in: queue), "\(parameters)")
        }
    }

    /// Whether the compiled statement reads any column from the `share` table itself rather than from an index.
    private func readsTableColumns(_ statement: (String, StatementArguments), in queue: DatabaseQueue) throws -> Bool {
        let (sql, arguments) = statement
        return try queue.read { db in
            let table = try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'share'")
            let program = try Row.fetchAll(db, sql: "EXPLAIN " + sql, arguments: arguments)
            let tableCursors = Set(program.filter { $0["opcode"] == "OpenRead" && $0["p2"] == table }.map { $0["p1"] as Int })
            return program.contains { $0["opcode"] == "Column" && tableCursors.contains($0["p1"] as Int) }
        }
    }
}
