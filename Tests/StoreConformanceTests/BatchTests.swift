import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Batches change many records in a few statements: each record must still get the event its own request would
/// write, and the running totals must follow. Were they not, a share's history would miss its move, or the storage
/// bar count shares that were purged.
@Suite struct BatchTests {
    private static func query(_ parameters: [(name: String, value: String)]) throws -> ShareQuery {
        try ShareQuery(parameters: parameters, defaultZone: ZonedCalendar(zone: .gmt))
    }

    @Test(arguments: Backend.allCases)
    func aBatchByFilterChangesEveryMatchEachWithItsEvent(_ backend: Backend) async throws {
        try await backend.withStore { database in
            var records: [ShareRecord] = []
            for index in 0..<30 {
                records.append(try await database.sharedHistory.add("r\(index).pdf", size: 10, folder: index % 3 == 0 ? "/a" : "/b"))
            }
            // Every event of the records still kept, of one kind.
            let events = { (action: ShareEvent.Action) in
                var found: [ShareEvent] = []
                for record in records {
                    guard let page = try? await database.sharedHistory.events(id: record.id, after: 0, limit: 100) else { continue }
                    found += page.events.filter { $0.action == action }
                }
                return found
            }

            #expect(try await database.sharedHistory.batch(.move(folder: "/c"), .matching(Self.query([("folder", "/a")])), by: "bob") == 10)
            let moved = try await events(.moved)
            #expect(moved.count == 10 && moved.allSatisfy { $0.from == "/a" && $0.to == "/c" && $0.by == "bob" }, "\(moved)")
            #expect(try await database.sharedHistory.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 10)
            #expect(try await events(.trashed).count == 10)
            #expect(
                try await database.sharedHistory.batch(.trash, .matching(Self.query([("folder", "/c")])), by: "bob") == 0, "the trash is not live")
            #expect(
                try await database.sharedHistory.batch(.restore, .matching(Self.query([("q", "r1")])), by: "bob") == 3, "r12, r15, r18: the trash's")
            #expect(try await events(.restored).count == 3)
            #expect(try await database.sharedHistory.batch(.purge, .matching(Self.query([("trashed", "true")])), by: "bob") == 7)
            #expect(try await events(.trashed).count == 3, "the purged records are gone, their events with them")
            #expect(try await database.sharedHistory.usage() == ShareStats.Total(count: 23, bytes: 230))
            #expect(try await database.recordCounts() == (live: 23, trashed: 0))
        }
    }

    @Test(arguments: Backend.allCases)
    func idsNamedTwiceAreChangedOnceAndAMissingOneChangesNothing(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("a.pdf", id: "A")
            try await database.sharedHistory.add("b.pdf", id: "B")
            #expect(try await database.sharedHistory.batch(.trash, .ids(["A", "a", "B"])) == 2)
            await #expect(throws: ShareError.notFound(id: "GONE")) { try await database.sharedHistory.batch(.restore, .ids(["A", "GONE"])) }
            #expect(try await database.sharedHistory.usage().count == 0, "all or none")
            #expect(try await database.sharedHistory.batch(.restore, .ids(["B"])) == 1)
            #expect(try await database.sharedHistory.usage().count == 1)
        }
    }

    /// Batches by filter racing renames, moves, trashing and restoring of the same records (two nodes, or two
    /// requests): every record's events, replayed from its creation, are a history that could have happened and end
    /// where the record is: no second "trashed", no "restored" while live, no "moved" while trashed, every `from`
    /// the value it replaced.
    @Test(arguments: Backend.allCases)
    func batchesRacingSingleChangesLeaveEventsThatReplayToEachRecord(_ backend: Backend) async throws {
        try await backend.withStore { database in
            var records: [ShareRecord] = []
            for index in 0..<12 { records.append(try await database.sharedHistory.add("r\(index).pdf", size: 1)) }
            let ids = records.map(\.id)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for round in 0..<24 {
                        let change: BatchChange = [.move(folder: round % 2 == 0 ? "/a" : "/b"), .trash, .restore][round % 3]
                        _ = try await database.sharedHistory.batch(change, .matching(Self.query([])))
                    }
                }
                for worker in 0..<3 {
                    group.addTask {
                        var random = SplitMix(seed: UInt64(worker + 1))
                        for step in 0..<60 {
                            let id = ids[Int(random.next() % UInt64(ids.count))]
                            do {
                                switch step % 4 {
                                case 0:
                                    _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: "n\(worker)-\(step).pdf", folder: nil))
                                case 1: _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: nil, folder: "/w\(worker)"))
                                case 2: try await database.sharedHistory.trashShare(id: id, includeTrashed: false, by: "w")
                                default: _ = try await database.sharedHistory.restoreShare(id: id, by: "w")
                                }
                            } catch ShareError.notFound {
                                // Trashed by another meanwhile: as a person would be told.
                            }
                        }
                    }
                }
                do {
                    try await group.waitForAll()
                } catch {
                    Issue.record("\(String(reflecting: error))")
                    throw error
                }
            }
            for record in records {
                var (name, folder, trashed) = (record.name, record.folder, false)
                var after: Int64 = 0
                var problems: [String] = []
                while true {
                    let page = try await database.sharedHistory.events(id: record.id, after: after, limit: 100)
                    for event in page.events {
                        switch event.action {
                        case .created, .uploaded, .imported, .revoked, .expiryChanged, .expired, .downloaded, .received: break
                        case .renamed:
                            if event.from != name { problems.append("renamed from \(event.from ?? "-") while named \(name)") }
                            name = event.to ?? name
                        case .moved:
                            if trashed || event.from != folder {
                                problems.append("moved from \(event.from ?? "-") while in \(folder), trashed \(trashed)")
                            }
                            folder = event.to ?? folder
                        case .trashed:
                            if trashed { problems.append("trashed twice") }
                            trashed = true
                        case .restored:
                            if !trashed { problems.append("restored while live") }
                            trashed = false
                        }
                    }
                    guard let next = page.next else { break }
                    after = next
                }
                let now = try await database.sharedHistory.share(id: record.id, includeTrashed: true)
                #expect(problems.isEmpty, "\(record.id): \(problems)")
                #expect(now.name == name && now.folder == folder && (now.trashedAt != nil) == trashed, "\(record.id) ends where its events do")
            }
        }
    }

    /// A batch's one transaction holds every other writer: one by filter acts on at most `maxRecords` records, and a
    /// filter matching more is refused naming it, with nothing changed.
    @Test(arguments: Backend.allCases)
    func aFilterMatchingMoreThanOneBatchMayTakeIsRefusedAndChangesNothing(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let session = try await database.sharedHistory.beginImport()
            let records = try (1...(BatchTargets.maxRecords + 1)).map { line in
                (line: line, share: try NewShare(id: nil, name: "n\(line).txt", folder: line == 1 ? "/one" : "/many", createdAt: nil, size: 1))
            }
            _ = try await session.stage(records)
            _ = try await session.finish()
            await #expect(throws: BatchTargets.tooManyMatches) { try await database.sharedHistory.batch(.trash, .matching(Self.query([]))) }
            #expect(try await database.recordCounts() == (live: BatchTargets.maxRecords + 1, trashed: 0))
            #expect(try await database.sharedHistory.batch(.trash, .matching(Self.query([("folder", "/one")]))) == 1, "a narrower filter is taken")
        }
    }
}
