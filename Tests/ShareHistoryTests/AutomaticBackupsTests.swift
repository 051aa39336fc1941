import Foundation
import Logging
import ShareHistory
import ShareKit
import ShareTestSupport
import Testing

/// `backup_dir` in one process, without waiting for its clock: each look that finds a backup due writes one named
/// by its time, and the oldest beyond `backup_keep` go with their files; a look with none due, or a failed one,
/// leaves the folder as it was; one cut off after writing its file keeps `backup_keep` all the same.
@Suite struct AutomaticBackupsTests {
    /// Writes a file and its files' folder when `due`, as a SQLite backup does; fails when `failing`, and after
    /// writing them when `cutOff` (the daemon stopping before the backup was recorded).
    private struct FolderWriter: BackupWriter {
        let fileExtension = "db"
        var due = true
        var failing = false
        var cutOff = false

        struct Refused: Error {}

        func backUp(to file: String, every: Duration, newestHere: Date?) async throws -> String? {
            if failing { throw Refused() }
            guard due else { return nil }
            FileManager.default.createFile(atPath: file, contents: Data("a backup".utf8))
            try FileManager.default.createDirectory(atPath: file + ".files", withIntermediateDirectories: true)
            if cutOff { throw CancellationError() }
            return "1 record"
        }
    }

    private func backups(into folder: URL, _ writer: FolderWriter) -> AutomaticBackups {
        AutomaticBackups(directory: folder.path, every: .seconds(3600), keep: 2, writer: writer, logger: Logger(label: "backups"))
    }

    private func hour(_ hour: Int) -> Timestamp {
        Timestamp(rfc3339: "2026-11-29T0\(hour):00:00Z")!
    }

    @Test func eachDueBackupIsNamedByItsTimeAndOnlyTheNewestAreKeptWithTheirFiles() async throws {
        let folder = try temporaryFolder("automatic-backups")
        for time in 1...3 { await backups(into: folder, FolderWriter()).backUpIfDue(now: hour(time)) }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(
            kept == [
                "share-2026-11-29T020000.000Z.db", "share-2026-11-29T020000.000Z.db.files", "share-2026-11-29T030000.000Z.db",
                "share-2026-11-29T030000.000Z.db.files",
            ], "the two newest, each with its files: \(kept)")
    }

    @Test func aLookWithNoneDueOrAFailedBackupLeavesTheFolderAsItWas() async throws {
        let folder = try temporaryFolder("automatic-backups")
        for time in 1...2 { await backups(into: folder, FolderWriter()).backUpIfDue(now: hour(time)) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        await backups(into: folder, FolderWriter(due: false)).backUpIfDue(now: hour(3))
        await backups(into: folder, FolderWriter(failing: true)).backUpIfDue(now: hour(4))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "no older backup goes for nothing")
        #expect(before.count == 4)
    }

    /// A node stopped amid its backup, after the file was written: the folder held one backup too many until the next
    /// look, which a stopped daemon never makes.
    @Test func aBackupCutOffAfterItsFileWasWrittenStillLeavesOnlyTheNewest() async throws {
        let folder = try temporaryFolder("automatic-backups")
        for time in 1...2 { await backups(into: folder, FolderWriter()).backUpIfDue(now: hour(time)) }
        await backups(into: folder, FolderWriter(cutOff: true)).backUpIfDue(now: hour(3))
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".db") }.sorted()
        #expect(kept == ["share-2026-11-29T020000.000Z.db", "share-2026-11-29T030000.000Z.db"], "\(kept)")
    }
}
