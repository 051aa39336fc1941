import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareSQLite
import StoreTestSupport
import Testing

@Suite struct ShareDatabaseWriteTests {
    @Test(arguments: Backend.allCases)
    func aCreatedRecordIsFoundByItsIdInAnyCase(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.add("Report.PDF", size: 1234, at: "2021-01-17T21:34:56.789+09:00")
            #expect(created.type == .pdf)
            #expect(created.folder == "/")
            #expect(created.createdAt.description == "2021-01-17T12:34:56.789Z")
            #expect(try await database.share(id: created.id.lowercased()) == created)
        }
    }

    @Test(arguments: Backend.allCases)
    func renamingRederivesTheTypeAndTheSearchKey(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.add("notes.txt")
            let renamed = try await database.updateShare(id: created.id, SharePatch(name: "Holiday.JPG", folder: nil))
            #expect(renamed.name == "Holiday.JPG" && renamed.type == .image)
            var query = ShareQuery()
            query.nameWords = ["holiday"]
            #expect(try await database.listShares(query).records == [renamed])
        }
    }

    @Test(arguments: Backend.allCases)
    func movingChangesOnlyTheFolder(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let created = try await database.add("a.pdf")
            let moved = try await database.updateShare(id: created.id, SharePatch(name: nil, folder: "/reports//2021/"))
            #expect(moved.folder == "/reports/2021")
            #expect(moved.name == created.name)
            #expect(moved.type == created.type)
            #expect(moved.createdAt == created.createdAt)
        }
    }

    @Test(arguments: Backend.allCases)
    func aGivenIdThatExistsInAnyCaseIsAConflict(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.add("a.pdf", id: "Legacy-1")
            await #expect(throws: ShareError.idTaken(id: "LEGACY-1")) { try await database.add("b.pdf", id: "LEGACY-1") }
        }
    }

    @Test(arguments: Backend.allCases)
    func trashHidesRestoreBringsBackPurgeRemoves(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let record = try await database.add("a.pdf")
            try await database.trashShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.share(id: record.id) }
            #expect(try await database.listShares(ShareQuery()).records.isEmpty)
            #expect(try await database.share(id: record.id, includeTrashed: true).trashedAt != nil)
            var trash = ShareQuery()
            trash.trashed = true
            #expect(try await database.listShares(trash).records.map(\.id) == [record.id])

            #expect(try await database.restoreShare(id: record.id) == record)
            try await database.trashShare(id: record.id)
            try await database.purgeShare(id: record.id)
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.share(id: record.id, includeTrashed: true) }
            await #expect(throws: ShareError.notFound(id: record.id)) { try await database.purgeShare(id: record.id) }
        }
    }
}

@Suite struct ShareDatabaseListingTests {
    private func ids(_ database: any ShareStore, _ configure: (inout ShareQuery) -> Void) async throws -> [String] {
        var query = ShareQuery()
        configure(&query)
        return try await database.listShares(query).records.map(\.name)
    }

    @Test(arguments: Backend.allCases)
    func searchIsALiteralCaseInsensitiveUnicodeSubstring(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for name in ["100%_done.txt", "1000 done.txt", "年度报告.pdf", "Re\u{301}sume\u{301}.doc", "STRASSE.md", "report.pdf"] {
                try await database.add(name)
            }
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "\"%_\"") } == ["100%_done.txt"])
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "报告") } == ["年度报告.pdf"])
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "RÉSUMÉ") } == ["Résumé.doc"])
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "Re\u{301}s") } == ["Résumé.doc"])
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "strasse") } == ["STRASSE.md"])
            #expect(try await ids(database) { $0.nameWords = SearchWords.pieces(of: "PORT") }.sorted() == ["report.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func searchFindsNamesHoldingEveryWordInAnyOrder(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for name in ["final_report.pdf", "report draft v2.doc", "draft-report.txt", "finally.txt", "年度报告 2021.xlsx", "a.b"] {
                try await database.add(name)
            }
            let found = { (text: String) in try await ids(database) { $0.nameWords = SearchWords.pieces(of: text) }.sorted() }
            #expect(try await found("final report") == ["final_report.pdf"])
            #expect(try await found("draft report") == ["draft-report.txt", "report draft v2.doc"])
            #expect(try await found("REPORT, draft") == ["draft-report.txt", "report draft v2.doc"])
            #expect(try await found("\"report draft\"") == ["report draft v2.doc"], "a quoted phrase stays literal")
            #expect(try await found("2021 报告") == ["年度报告 2021.xlsx"])
            #expect(try await found("r A") == ["draft-report.txt", "final_report.pdf", "report draft v2.doc"], "two words of one letter")
            #expect(try await found("final report xyz") == [])
        }
    }

    @Test(arguments: Backend.allCases)
    func dateTypeAndFolderFiltersCombine(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.add("early.pdf", folder: "/a", at: "2021-01-16T23:59:59.999Z")
            try await database.add("inside.pdf", folder: "/a", at: "2021-01-17T00:00:00Z")
            try await database.add("inside.doc", folder: "/a", at: "2021-01-17T12:00:00Z")
            try await database.add("nested.pdf", folder: "/a/b", at: "2021-01-17T13:00:00Z")
            try await database.add("sibling.pdf", folder: "/ab", at: "2021-01-17T14:00:00Z")
            try await database.add("late.pdf", folder: "/a", at: "2021-01-18T00:00:00Z")
            let day = ZonedCalendar(identifier: "UTC")!.range(of: CalendarDay("2021-01-17")!)
            let onTheDay: (inout ShareQuery) -> Void = {
                $0.createdFrom = day.lowerBound
                $0.createdBefore = day.upperBound
            }
            #expect(try await ids(database, onTheDay) == ["sibling.pdf", "nested.pdf", "inside.doc", "inside.pdf"])
            #expect(
                try await ids(database) {
                    onTheDay(&$0)
                    $0.types = [.pdf]
                    $0.folder = "/a"
                } == ["inside.pdf"])
            #expect(
                try await ids(database) {
                    onTheDay(&$0)
                    $0.folder = "/a"
                    $0.recursive = true
                }
                    == ["nested.pdf", "inside.doc", "inside.pdf"])
            #expect(
                try await ids(database) {
                    $0.folder = "/"
                    $0.recursive = true
                }.count == 6)
            #expect(try await ids(database) { $0.folder = "/" }.isEmpty)
        }
    }

    @Test(arguments: ListingSort.allCases, ListingOrder.allCases)
    func pagingVisitsEveryRecordOnceInOrderEvenWithTies(sort: ListingSort, order: ListingOrder) async throws {
        let database = try SQLiteStore.temporary()
        // Three values of each sort key, so most records tie with others and only the id separates them.
        for index in 0..<23 {
            try await database.add(
                ["b.pdf", "A.pdf", "c.pdf"][index % 3], size: Int64(index % 3),
                at: ["2021-01-17T10:00:00Z", "2021-01-17T11:00:00Z", "2021-01-17T09:00:00Z"][index % 3])
        }
        var query = ShareQuery()
        query.sort = sort
        query.order = order
        query.limit = 5
        var seen: [ShareRecord] = []
        var pages = 0
        repeat {
            let page = try await database.listShares(query)
            seen += try page.records
            query.cursor = page.next
            pages += 1
        } while query.cursor != nil && pages < 10
        #expect(pages == 5)
        #expect(Set(seen.map(\.id)).count == 23)
        let keys = seen.map { record -> String in
            let key: String
            switch sort {
            case .createdAt: key = record.createdAt.description
            case .name: key = SearchKey.fold(record.name)
            case .size: key = String(record.size)
            }
            return key + " " + record.id.uppercased()
        }
        #expect(keys == (order == .asc ? keys.sorted() : keys.sorted(by: >)))
    }
}

@Suite struct ShareDatabaseFileTests {
    @Test func recordsSurviveReopeningTheFile() async throws {
        let path = try temporaryDatabasePath()
        let record = try await SQLiteStore(path: path).add("kept.pdf")
        #expect(try await SQLiteStore(path: path).share(id: record.id) == record)
    }

    @Test func theFileIsInWALModeWithEveryMigrationAppliedInOrder() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../migrations").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        let shipped = files.map { String($0.dropLast(".sql".count)) }.sorted()
        #expect(shipped.allSatisfy { $0.range(of: #"^[0-9]{4}_[a-z0-9_]+$"#, options: .regularExpression) != nil })
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let journalMode = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        let migrations = try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
        #expect(journalMode == "wal")
        #expect(migrations == shipped)
    }

    /// `/metrics` reports the sizes the store gives: a file's and its log's, and nothing for a history in memory.
    @Test func aFileStoreReportsItsFilesSizesAndAnInMemoryOneNone() async throws {
        let database = try SQLiteStore(path: try temporaryDatabasePath())
        try await database.add("report.pdf")
        let sizes = Dictionary(uniqueKeysWithValues: database.bytesOnDisk().map { ($0.part, $0.bytes) })
        #expect(Set(sizes.keys) == ["database", "wal"])
        #expect(sizes["database", default: 0] > 0 && sizes["wal", default: 0] > 0, "\(sizes)")
        #expect(try SQLiteStore.temporary().bytesOnDisk().isEmpty)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let path = try temporaryDatabasePath()
        let contents = Data("my precious notes, not a database\n".utf8)
        try contents.write(to: URL(filePath: path))
        #expect(throws: StoreError.notADatabase(path: path)) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(filePath: path)) == contents)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aDatabaseFromANewerVersionIsRefused() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('0042_from_the_future')")
        }
        #expect(throws: StoreError.newerSchema(path: path, unknownMigrations: ["0042_from_the_future"])) {
            try SQLiteStore(path: path)
        }
    }

    @Test func concurrentWritersFromTwoConnectionsAllSucceed() async throws {
        let path = try temporaryDatabasePath()
        let first = try SQLiteStore(path: path)
        // Another process's connection (a maintenance script): the daemon's lock keeps out a second daemon only.
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)
        let second = try SQLiteStore(writer: try DatabasePool(path: path, configuration: waiting), path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { try await (index % 2 == 0 ? first : second).add("file-\(index).txt") }
            }
            try await group.waitForAll()
        }
        var query = ShareQuery()
        query.limit = 1000
        #expect(try await first.listShares(query).records.count == 200)
    }
}

@Suite struct TrashRetentionStoreTests {
    @Test(arguments: Backend.allCases)
    func purgingTheTrashTakesOnlyWhatWasTrashedBeforeTheLimitAndChangesTheVersion(_ backend: Backend) async throws {
        try await backend.withStore { database in
            let old = try await database.add("old.txt")
            let recent = try await database.add("recent.txt")
            let live = try await database.add("live.txt")
            try await database.trashShare(id: old.id, now: Timestamp(rfc3339: "2021-01-01T00:00:00Z")!)
            try await database.trashShare(id: recent.id, now: Timestamp(rfc3339: "2021-03-01T00:00:00Z")!)
            let tag = try await database.historyTag()
            #expect(try await database.purgeTrash(trashedBefore: Timestamp(rfc3339: "2021-02-01T00:00:00Z")!) == 1)
            #expect(try await database.historyTag() != tag)
            await #expect(throws: ShareError.notFound(id: old.id)) { try await database.share(id: old.id, includeTrashed: true) }
            #expect(try await database.share(id: recent.id, includeTrashed: true).trashedAt != nil)
            #expect(try await database.share(id: live.id).trashedAt == nil)
            let unchanged = try await database.historyTag()
            #expect(try await database.purgeTrash(trashedBefore: Timestamp(rfc3339: "2021-02-01T00:00:00Z")!) == 0)
            #expect(try await database.historyTag() == unchanged, "nothing purged, nothing changed")
        }
    }
}
