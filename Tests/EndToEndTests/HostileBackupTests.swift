import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

/// `shared restore` handed backups that someone changed, and asked to restore in ways that could lose the live
/// history: each is refused with the reason, and the history stays as it was.
@Suite(.serialized) struct HostileBackupTests {
    /// A stopped daemon's folder holding `share.db` with two records, and a good backup of it, `backup.db`.
    private func history() async throws -> (folder: URL, database: String, backup: String) {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        for name in ["a.txt", "b.pdf"] {
            _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "\#(name)", "size": 1, "id": "ID\#(name.prefix(1))"}"#)
        }
        #expect(daemon.stop() == 0)
        let database = folder.appending(path: "share.db").path
        let backup = folder.appending(path: "backup.db").path
        #expect(try Daemon.run(["backup", "--db", database, "--to", backup], in: folder).status == 0)
        return (folder, database, backup)
    }

    /// Runs SQL on a file with Python's sqlite3, as anyone could.
    private func tamper(_ path: String, _ sql: String) throws {
        let python = ChildProcess()
        python.executableURL = URL(filePath: "/usr/bin/python3")
        python.arguments = ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", path, sql]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(sql)")
    }

    @Test(arguments: [
        ("CREATE TRIGGER steal AFTER INSERT ON share BEGIN UPDATE share SET name = 'pwned.txt' WHERE seq = new.seq; END;", "trigger 'steal'"),
        ("CREATE TABLE hidden (name TEXT);", "table 'hidden'"),
        ("DROP INDEX share_live_by_size;", "index 'share_live_by_size'"),
        (
            "DROP VIEW share_search_text; CREATE VIEW share_search_text AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS seq, i AS doc, '' AS search_text FROM n;",
            "view 'share_search_text'"
        ),
        ("UPDATE share SET id = 'export' WHERE id = 'IDa';", "\"export\""),
        ("UPDATE share SET name = '..', name_key = '..' WHERE id = 'IDa';", "breaks a field rule"),
        ("UPDATE share SET name = 'a' || char(27) || '[2J.txt' WHERE id = 'IDa';", "breaks a field rule"),
        ("UPDATE share SET type = 'exe' WHERE id = 'IDb';", "type that its name does not give"),
        ("UPDATE share SET created_at = 999999999999999 WHERE id = 'IDb';", "creation time out of range"),
        ("UPDATE share_event SET action = 'hacked';", "action shared does not record"),
        ("UPDATE share SET thumbnail = 1 WHERE id = 'IDa';", "do not say rightly which have a thumbnail"),
        (
            "INSERT INTO share_thumbnail SELECT seq, 'tag', CAST('<svg onload=alert(1)>' AS BLOB) FROM share WHERE id = 'IDa'; "
                + "UPDATE share SET thumbnail = 1 WHERE id = 'IDa';",
            "a thumbnail shared would not have made"
        ),
    ])
    func aBackupHoldingWhatSharedWouldNotWriteIsRefused(sql: String, reason: String) async throws {
        let (folder, database, backup) = try await history()
        try tamper(backup, sql)
        let started = Date()
        let refused = try Daemon.run(["restore", "--db", database, "--from", backup, "--force"], in: folder)
        #expect(refused.status != 0, "\(refused.output)")
        #expect(refused.output.contains("is not a backup shared can restore") && refused.output.contains(reason), "\(refused.output)")
        #expect(Date().timeIntervalSince(started) < 30, "refused before any endless query runs")
        let checked = try Daemon.run(["backup", "--db", database, "--to", folder.appending(path: "after.db").path], in: folder)
        #expect(checked.output.contains("2 records"), "the history is untouched: \(checked.output)")
    }

    @Test func aRestoreThroughALinkIsRefusedWhileTheDaemonServesTheFile() async throws {
        let (folder, database, backup) = try await history()
        let link = folder.appending(path: "link.db").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0", "--db", database])
        let refused = try Daemon.run(["restore", "--db", link, "--from", backup, "--force"], in: folder)
        #expect(refused.status != 0 && refused.output.contains("open in another process"), "\(refused.output)")
        let created = try await http("POST", "\(daemon.address)/share", body: #"{"name": "acknowledged.txt", "size": 1}"#)
        #expect(created.status == 201)
        #expect(daemon.stop() == 0)
        let checked = try Daemon.run(["backup", "--db", database, "--to", folder.appending(path: "after.db").path], in: folder)
        #expect(checked.output.contains("3 records"), "the acknowledged write is kept: \(checked.output)")
    }

    @Test func aDatabaseIsNotRestoredOverItselfAndTheTargetIsNeverLeftMissing() async throws {
        let (folder, database, _) = try await history()
        let itself = try Daemon.run(["restore", "--db", database, "--from", database], in: folder)
        #expect(itself.status != 0 && itself.output.contains("is the database"), "\(itself.output)")
        let link = folder.appending(path: "link.db").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        let throughLink = try Daemon.run(["restore", "--db", database, "--from", link], in: folder)
        #expect(throughLink.status != 0 && throughLink.output.contains("is the database"), "\(throughLink.output)")
        #expect(FileManager.default.fileExists(atPath: database))
        let daemon = try Daemon(folder: folder)
        #expect(try await http("GET", "\(daemon.address)/share/IDa").status == 200, "the history is still served")
        #expect(daemon.stop() == 0)
    }

    @Test func aRestoredHistoryNeverAnswersATagOfTheOneItReplaced() async throws {
        let (folder, database, backup) = try await history()
        var daemon = try Daemon(folder: folder)
        let tag = try await http("GET", "\(daemon.address)/share").headers["etag"] ?? ""
        #expect(daemon.stop() == 0)
        #expect(try Daemon.run(["restore", "--db", database, "--from", backup], in: folder).status == 0)
        daemon = try Daemon(folder: folder)
        let answer = try await http("GET", "\(daemon.address)/share", headers: ["If-None-Match": tag])
        #expect(answer.status == 200, "the same version number, another history: \(tag) vs \(answer.headers["etag"] ?? "")")
        #expect(daemon.stop() == 0)
    }

    @Test func theHistoryAndItsBackupsArePrivateFiles() async throws {
        let (_, database, backup) = try await history()
        for path in [database, database + "-wal", backup] where FileManager.default.fileExists(atPath: path) {
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
            #expect(mode == 0o600, "\(path): \(String(mode, radix: 8))")
        }
    }

    @Test func aBackupThatFailsLeavesNoFileBehind() async throws {
        let (folder, database, _) = try await history()
        // The page of the share table overwritten (its log folded in first, so no newer copy of the page hides
        // the damage): the copy begins, then meets it.
        let python = ChildProcess()
        python.executableURL = URL(filePath: "/usr/bin/python3")
        python.arguments = [
            "-c",
            "import sqlite3,sys; p=sys.argv[1]; c=sqlite3.connect(p); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); "
                + "r=c.execute(\"SELECT rootpage FROM sqlite_master WHERE name='share'\").fetchone()[0]; c.close(); "
                + "d=bytearray(open(p,'rb').read()); d[(r-1)*4096+8:r*4096]=b'\\xee'*(4096-8); open(p,'wb').write(d)",
            database,
        ]
        try python.run()
        python.waitUntilExit()
        let target = folder.appending(path: "from-damaged.db").path
        let failed = try Daemon.run(["backup", "--db", database, "--to", target], in: folder)
        #expect(failed.status != 0 && failed.output.contains("malformed"), "\(failed.output)")
        #expect(!FileManager.default.fileExists(atPath: target), "no empty file to pass for a backup")
    }
}
