import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Imports: staged while the stream arrives, joining the history together at the end or not at all, each taken id
/// reported by line, on every store.
@Suite struct ImportTests {
    private func batch(_ names: [String], firstLine: Int = 1, ids: [String?]? = nil) throws -> [(line: Int, share: NewShare)] {
        try names.enumerated().map { offset, name in
            (firstLine + offset, try NewShare(id: ids?[offset], name: name, folder: "/in", createdAt: nil, size: Int64(offset)))
        }
    }

    private func names(_ database: any HistoryStore, _ parameters: [(name: String, value: String)] = []) async throws -> [String] {
        let query = try ShareQuery(
            parameters: parameters + [("limit", "1000"), ("sort", "name"), ("order", "asc")],
            defaultZone: ZonedCalendar(identifier: "UTC")!)
        return try await database.listShares(query).records.map(\.name)
    }

    @Test(arguments: Backend.allCases)
    func idsTakenInTheHistoryOrEarlierInTheImportAreReportedByLine(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("kept.pdf", id: "legacy-1")
            let staging = try await database.sharedHistory.beginImport()
            let problems = try await staging.stage(
                try batch(["a.pdf", "b.pdf", "c.pdf", "d.pdf"], ids: ["LEGACY-1", "x-2", nil, "X-2"]))
            #expect(problems.map(\.line) == [1, 4])
            #expect(problems.first?.detail == "a share with id 'LEGACY-1' exists already")
            // Another request takes an id while the import is still streaming.
            _ = try await staging.stage(try batch(["e.pdf"], firstLine: 5, ids: ["late"]))
            try await database.sharedHistory.add("first.pdf", id: "LATE")
            let late = try await staging.finish()
            #expect(late.problems == [ImportReport.Problem.idTaken(line: 5, id: "late")] && late.stored == 2)
            #expect(try await names(database.sharedHistory) == ["b.pdf", "c.pdf", "first.pdf", "kept.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func aDiscardedImportLeavesNothingBehind(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let staging = try await database.sharedHistory.beginImport()
            _ = try await staging.stage(try batch(["lost.pdf"], ids: ["kept-id"]))
            await staging.discard()
            #expect(try await names(database.sharedHistory).isEmpty)
            // Its ids are free for the next import.
            let again = try await database.sharedHistory.beginImport()
            #expect(try await again.stage(try batch(["found.pdf"], ids: ["kept-id"])).isEmpty)
            #expect(try await again.finish().problems.isEmpty)
            #expect(try await names(database.sharedHistory) == ["found.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func concurrentImportsDoNotMix(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let first = try await database.sharedHistory.beginImport()
            let second = try await database.sharedHistory.beginImport()
            _ = try await first.stage(try batch(["one.pdf"]))
            _ = try await second.stage(try batch(["two.pdf"]))
            await first.discard()
            #expect(try await second.finish().problems.isEmpty)
            #expect(try await names(database.sharedHistory) == ["two.pdf"])
        }
    }

    /// A JSON array on one line is many records of one line: they are told apart by their ids, so an id taken in the
    /// history and an id given twice in the array are each reported once, and the report counts what was stored.
    @Test(arguments: Backend.allCases)
    func recordsOfOneLineAreToldApartByTheirIds(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("kept.pdf", id: "TAKEN")
            let staging = try await database.sharedHistory.beginImport()
            let oneLine = try batch(["a.pdf", "b.pdf", "taken.pdf", "again.pdf", "c.pdf"], ids: ["A-1", "B-1", "taken", "a-1", nil])
                .map { (line: 1, share: $0.share) }
            let problems = try await staging.stage(oneLine)
            #expect(problems.map(\.detail) == ["a share with id 'taken' exists already", "a share with id 'a-1' exists already"])
            let finished = try await staging.finish()
            #expect(finished.stored == 3 && finished.problems.isEmpty)
            #expect(try await names(database.sharedHistory) == ["a.pdf", "b.pdf", "c.pdf", "kept.pdf"])
        }
    }

    /// Two imports of the same ids finishing at once (two nodes, or two requests) store each id once; the other
    /// reports it taken, line by line, instead of failing.
    @Test(arguments: Backend.allCases)
    func twoImportsOfTheSameIdsFinishingAtOnceStoreEachOnceAndReportTheRest(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let ids: [String?] = (1...50).map { "SAME-\($0)" }
            let first = try await database.sharedHistory.beginImport()
            let second = try await database.sharedHistory.beginImport()
            #expect(try await first.stage(try batch((1...50).map { "first \($0).pdf" }, ids: ids)).isEmpty)
            #expect(try await second.stage(try batch((1...50).map { "second \($0).pdf" }, ids: ids)).isEmpty)
            async let one = first.finish()
            async let other = second.finish()
            let (a, b) = try await (one, other)
            #expect(a.stored + b.stored == 50 && a.problems.count + b.problems.count == 50, "\(a.stored) and \(b.stored) stored")
            #expect(try await database.recordCounts().live == 50)
        }
    }
}
