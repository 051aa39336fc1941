import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareSQLite
import StoreTestSupport
import Testing

@Suite struct SQLiteFileTests {
    @Test func recordsSurviveReopeningTheFile() async throws {
        let path = try temporaryDatabasePath()
        let record = try await SQLiteStore(path: path).sharedHistory.add("kept.pdf")
        #expect(try await SQLiteStore(path: path).sharedHistory.share(id: record.id) == record)
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
        try await database.sharedHistory.add("report.pdf")
        let sizes = Dictionary(uniqueKeysWithValues: database.bytesOnDisk().map { ($0.part, $0.bytes) })
        #expect(Set(sizes.keys) == ["database", "wal"])
        #expect(sizes["database", default: 0] > 0 && sizes["wal", default: 0] > 0, "\(sizes)")
        #expect(try SQLiteStore.temporary().bytesOnDisk().isEmpty)
    }

    @Test func checkingTheServedFileNamesARecordThatBreaksARule() async throws {
        let path = try temporaryDatabasePath()
        try await SQLiteStore(path: path).sharedHistory.add("photo.jpg", id: "PHOTO-1")
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE share SET type = 'pdf' WHERE id = 'PHOTO-1'") }
        #expect(throws: StoreError.notAsWritten(path: path, reason: #"its record "PHOTO-1" has a type that its name does not give"#)) {
            try SQLiteBackups.checkServed(path)
        }
    }

    /// Each restore keeps the database it replaced; two in one second (a script, a retry) must not share its name, which
    /// refused the second restore with "file exists".
    @Test func twoRestoresInOneSecondKeepEachReplacedDatabase() async throws {
        let path = try temporaryDatabasePath()
        let backup = path + ".backup"
        try await SQLiteStore(path: path).sharedHistory.add("first.pdf")
        _ = try SQLiteBackups.backUp(databaseAt: path, to: backup)
        let now = Date()
        let first = try #require(try SQLiteBackups.restore(from: backup, to: path, force: false, now: now).aside)
        try await SQLiteStore(path: path).sharedHistory.add("second.pdf")
        let second = try #require(try SQLiteBackups.restore(from: backup, to: path, force: true, now: now).aside)
        #expect(first != second)
        #expect(try SQLiteBackups.check(first).live == 1 && SQLiteBackups.check(second).live == 2)
        #expect(try SQLiteBackups.check(path).live == 1)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let path = try temporaryDatabasePath()
        let contents = Data("my precious notes, not a database\n".utf8)
        try contents.write(to: URL(filePath: path))
        #expect(throws: SQLiteFileError.notADatabase(path: path)) { try SQLiteStore(path: path) }
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
                group.addTask { try await (index % 2 == 0 ? first : second).sharedHistory.add("file-\(index).txt") }
            }
            try await group.waitForAll()
        }
        var query = ShareQuery()
        query.limit = 1000
        #expect(try await first.sharedHistory.listShares(query).records.count == 200)
    }
}
