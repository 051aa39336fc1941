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

    private func plan(_ parameters: [(String, String)], in queue: DatabaseQueue) throws -> [String] {
        let query = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
        let (sql, arguments) = ShareListing(query: query).statement()
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
}
