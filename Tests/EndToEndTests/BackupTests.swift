import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Synchronization
import Testing

/// `shared backup` and `shared restore` on the real binary, with the real daemon serving and writing.
@Suite(.serialized) struct BackupTests {
    @Test func aBackupTakenUnderWritesIsConsistentAndRestoresWithItsChecks() async throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let daemon = try Daemon(folder: folder)
        // Writers keep adding records while the backup is taken; every answer other than a 201 is kept, to be told.
        let outcomes = Mutex<[String: Int]>([:])
        let writers = Task {
            var written = 0
            while !Task.isCancelled, written < 2000 {
                do {
                    let sent = try await http("POST", "\(daemon.address)/share", body: #"{"name": "w\#(written).txt", "size": 1}"#)
                    if sent.status == 201 { written += 1 }
                    outcomes.withLock { $0[sent.status == 201 ? "201" : "\(sent.status) \(sent.body.prefix(200))", default: 0] += 1 }
                } catch {
                    outcomes.withLock { $0["\(error)".prefix(200) + "", default: 0] += 1 }
                }
            }
        }
        defer { writers.cancel() }
        // Taken once writes are landing, however long the first ones take beside every other suite.
        var stored = ""
        do {
            try await waitUntil("twenty writes stored", within: .seconds(300)) {
                stored = try await http("GET", "\(daemon.address)/share/stats").body
                return try WireJSON.decoder().decode(ShareStats.self, from: Data(stored.utf8)).count >= 20
            }
        } catch {
            let logged = (try? String(contentsOf: daemon.log, encoding: .utf8)) ?? ""
            Issue.record("\(error): the writes were answered \(outcomes.withLock { $0 }), statistics said \(stored); \(logged.suffix(3000))")
            throw error
        }
        let backup = folder.appending(path: "backup.db").path
        let taken = try Daemon.run(["backup", "--db", database, "--to", backup], in: folder)
        writers.cancel()
        _ = await writers.value
        #expect(taken.status == 0, "\(taken.output)")
        let schema = try Self.latestMigration()
        #expect(taken.output.contains("backup OK") && taken.output.contains("schema \(schema)"), "\(taken.output)")
        let held = Int(taken.output.split(separator: " ").first { Int($0) != nil } ?? "") ?? -1
        #expect(held > 0, "\(taken.output)")

        // One record more than the backup holds, whatever the writers managed after it was taken.
        _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "after-the-backup.txt", "size": 1}"#)
        let refused = try Daemon.run(["restore", "--db", database, "--from", backup], in: folder)
        #expect(refused.status != 0 && refused.output.contains("open in another process"), "not while shared serves")
        #expect(daemon.stop() == 0)

        let fewer = try Daemon.run(["restore", "--db", database, "--from", backup], in: folder)
        #expect(fewer.status != 0 && fewer.output.contains("--force"), "\(taken.output) then \(fewer.output)")
        let restored = try Daemon.run(["restore", "--db", database, "--from", backup, "--force"], in: folder)
        #expect(restored.status == 0, "\(restored.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix("share.db.replaced-") })

        let again = try Daemon(folder: folder)
        let listed = try await http("GET", "\(again.address)/share?limit=1000").body
        let names = try WireJSON.decoder().decode([ShareRecord].self, from: Data(listed.utf8)).map(\.name)
        let more = try await http("GET", "\(again.address)/share/stats").body
        #expect(try WireJSON.decoder().decode(ShareStats.self, from: Data(more.utf8)).count == held, "the backup holds what it said")
        #expect(Set(names).count == names.count)
        #expect(again.stop() == 0)
    }

    @Test func aBackupFromANewerVersionOrNotADatabaseIsRefused() throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let daemon = try Daemon(folder: folder)
        #expect(daemon.stop() == 0)
        let backup = folder.appending(path: "newer.db").path
        #expect(try Daemon.run(["backup", "--db", database, "--to", backup], in: folder).status == 0)
        #expect(try Daemon.run(["backup", "--db", database, "--to", backup], in: folder).output.contains("exists already"))
        let sqlite = ChildProcess()
        sqlite.executableURL = URL(filePath: "/usr/bin/python3")
        sqlite.arguments = [
            "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO grdb_migrations VALUES ('9999_future')\"); c.commit()",
            backup,
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        let newer = try Daemon.run(["restore", "--db", database, "--from", backup], in: folder)
        #expect(newer.status != 0 && newer.output.contains("newer version"), "\(newer.output)")
        let text = folder.appending(path: "notes.txt")
        try Data("not a database".utf8).write(to: text)
        let foreign = try Daemon.run(["restore", "--db", database, "--from", text.path], in: folder)
        #expect(foreign.status != 0 && foreign.output.contains("not a SQLite database"))
    }

    @Test func automaticBackupsKeepTheNewestOnes() async throws {
        let folder = try temporaryFolder()
        let backups = folder.appending(path: "backups")
        let daemon = try Daemon(
            folder: folder,
            environment: ["SHARE_DATABASE_BACKUP_DIR": backups.path, "SHARE_DATABASE_BACKUP_EVERY": "1s", "SHARE_DATABASE_BACKUP_KEEP": "2"])
        let created = try await http("POST", "\(daemon.address)/share", body: #"{"name": "kept.txt", "size": 1}"#)
        #expect(created.status == 201)
        // Backups go on meanwhile (a busy machine may write several before the record is stored): the one in progress
        // now may have begun before it, the two after it cannot have.
        let written = { daemon.logText.components(separatedBy: "backup written").count - 1 }
        let before = written()
        try await waitUntil("two backups begun after the record, and two old ones removed", within: .seconds(30)) {
            written() >= before + 3 && daemon.logText.components(separatedBy: "old backup removed").count >= 3
        }
        #expect(daemon.stop() == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: backups.path).filter { $0.hasSuffix(".db") }.sorted()
        #expect(files.count == 2, "\(files)")
        for file in files {
            let checked = try Daemon.run(
                ["backup", "--db", backups.appending(path: file).path, "--to", folder.appending(path: "copy-\(file)").path], in: folder)
            #expect(checked.output.contains("1 record "), "each backup is whole: \(checked.output)")
        }
    }

    /// The newest of the repository's migrations, by name: the schema a new database has.
    private static func latestMigration() throws -> String {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "migrations")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted().last
            .map { String($0.dropLast(4)) } ?? ""
    }
}
