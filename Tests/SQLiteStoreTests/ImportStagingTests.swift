import Foundation
import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// Imports are staged and join the history at the end, rebuilding the indexes when they are at least as large
/// as the history: a user must never notice the difference, except in speed.
@Suite struct ImportStagingTests {
    private func batch(_ names: [String], firstLine: Int = 1, ids: [String?]? = nil) throws -> [(line: Int, share: NewShare)] {
        try names.enumerated().map { offset, name in
            (firstLine + offset, try NewShare(id: ids?[offset], name: name, folder: "/in", createdAt: nil, size: Int64(offset)))
        }
    }

    private func schema(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'share' AND sql IS NOT NULL ORDER BY name")
        }
    }

    private func names(_ database: any HistoryStore, _ parameters: [(name: String, value: String)] = []) async throws -> [String] {
        let query = try ShareQuery(
            parameters: parameters + [("limit", "1000"), ("sort", "name"), ("order", "asc")],
            defaultZone: ZonedCalendar(identifier: "UTC")!)
        return try await database.listShares(query).records.map(\.name)
    }

    @Test func aFirstLoadRebuildsTheIndexesAsTheMigrationsMadeThem() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let before = try schema(path)
        let staging = try await database.sharedHistory.beginImport()
        #expect(try await staging.stage(try batch(["b.pdf", "a report.pdf"])).isEmpty)
        #expect(try await staging.stage(try batch(["c.txt"], firstLine: 3)).isEmpty)
        #expect(try await names(database.sharedHistory).isEmpty, "staged records stay invisible until the stream ends")
        #expect(try await staging.finish().problems.isEmpty)
        #expect(try schema(path) == before)
        #expect(try await names(database.sharedHistory) == ["a report.pdf", "b.pdf", "c.txt"])
        #expect(try await names(database.sharedHistory, [("q", "REPORT")]) == ["a report.pdf"], "imported names are searchable")
    }

    @Test func aSmallImportJoinsALargerHistoryWithItsIndexesInPlace() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        for index in 0..<5 { try await database.sharedHistory.add("old-\(index).pdf") }
        let staging = try await database.sharedHistory.beginImport()
        _ = try await staging.stage(try batch(["new report.pdf"]))
        #expect(try await staging.finish().problems.isEmpty)
        #expect(try await names(database.sharedHistory, [("q", "report")]) == ["new report.pdf"])
        #expect(try await names(database.sharedHistory).count == 6)
    }
}
