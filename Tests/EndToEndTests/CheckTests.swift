import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// `shared check` on the real binary, beside the real daemon serving the same file.
@Suite struct CheckTests {
    @Test func checkFindsRunningTotalsThatDriftedAndItsRepairPutsThemRightWhileSharedServes() async throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let daemon = try Daemon(folder: folder)
        for name in ["a.pdf", "b.jpg", "c.pdf"] {
            _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "\#(name)", "size": 10}"#)
        }
        let checked = try Daemon.run(["check", "--db", database], in: folder)
        #expect(checked.status == 0 && checked.output.contains("check OK") && checked.output.contains("3 records"), "\(checked.output)")

        try Self.sqlite(database, "UPDATE share_total_month SET count = count + 5 WHERE type = 'pdf'")
        #expect(try await Self.count(daemon) == 8, "the storage line believes the totals")
        let drifted = try Daemon.run(["check", "--db", database], in: folder)
        #expect(drifted.status != 0 && drifted.output.contains("shared check --repair-totals"), "\(drifted.output)")

        let repaired = try Daemon.run(["check", "--repair-totals", "--db", database], in: folder)
        #expect(repaired.status == 0 && repaired.output.contains("1 row differed") && repaired.output.contains("check OK"), "\(repaired.output)")
        #expect(try await Self.count(daemon) == 3)
        #expect(daemon.stop() == 0)
    }

    @Test func checkFindsRecordsInAnotherUsersHistoryAndOwnerNumbersThatNameNobody() async throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let daemon = try Daemon(
            folder: folder, environment: ["SHARE_AUTH_USERS": "alice=alice-secret,bob=bob-secret", "SHARE_AUTH_HISTORIES": "per-user"])
        for (user, id) in [("alice", "ALICE-1"), ("bob", "BOB-1"), ("bob", "BOB-2")] {
            let created = try await http(
                "POST", "\(daemon.address)/share", body: #"{"name": "\#(id).pdf", "size": 10, "id": "\#(id)"}"#,
                headers: ["Authorization": "Bearer \(user)-secret"])
            #expect(created.status == 201)
        }
        let clean = try Daemon.run(["check", "--db", database], in: folder)
        #expect(clean.status == 0 && clean.output.contains("every record is in its owner's history"), "\(clean.output)")

        try Self.sqlite(database, "UPDATE share SET owner = (SELECT id FROM share_user WHERE name = 'alice') WHERE id = 'BOB-1'")
        let misplaced = try Daemon.run(["check", "--db", database], in: folder)
        let wrongHistory = #"1 record in "alice"'s history made by requests of "bob""#
        #expect(misplaced.status != 0 && misplaced.output.contains(wrongHistory), "\(misplaced.output)")

        try Self.sqlite(database, "UPDATE share SET owner = 77 WHERE id = 'BOB-2'")
        let orphaned = try Daemon.run(["check", "--db", database], in: folder)
        #expect(orphaned.output.contains("1 record carrying owner number 77, which names no user"), "\(orphaned.output)")
        #expect(daemon.stop() == 0)
    }

    /// The same on PostgreSQL: `shared check` reads the database of `[database] url` while a node serves it.
    @Test func checkOnPostgreSQLFindsADriftedTotalAndItsRepairPutsItRight() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder()
            let environment = ["SHARE_DATABASE_URL": try TestPostgres.url(of: name)]
            let unmade = try Daemon.run(["check"], in: folder, environment: environment)
            #expect(unmade.status != 0 && unmade.output.contains("holds no history"), "\(unmade.output)")
            let daemon = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment)
            for name in ["a.pdf", "b.jpg", "c.pdf"] {
                _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "\#(name)", "size": 10}"#)
            }
            let checked = try Daemon.run(["check"], in: folder, environment: environment)
            #expect(checked.status == 0 && checked.output.contains("check OK: the PostgreSQL database: 3 records"), "\(checked.output)")

            try await TestPostgres.withClient(database: name) { client in
                _ = try await client.query("UPDATE share_total_month SET count = count + 5 WHERE type = 'pdf'")
            }
            #expect(try await Self.count(daemon) == 8, "the storage line believes the totals")
            let drifted = try Daemon.run(["check"], in: folder, environment: environment)
            #expect(drifted.status != 0 && drifted.output.contains("shared check --repair-totals"), "\(drifted.output)")

            let repaired = try Daemon.run(["check", "--repair-totals"], in: folder, environment: environment)
            #expect(repaired.status == 0 && repaired.output.contains("1 row differed") && repaired.output.contains("check OK"), "\(repaired.output)")
            #expect(try await Self.count(daemon) == 3)
            #expect(daemon.stop() == 0)
        }
    }

    /// The count the page's storage line shows: statistics `by=none`, which read the months' totals alone.
    private static func count(_ daemon: Daemon) async throws -> Int {
        let body = try await http("GET", "\(daemon.address)/share/stats?by=none").body
        return try WireJSON.decoder().decode(ShareStats.self, from: Data(body.utf8)).count
    }

    /// Changes the file behind the daemon's back, as a damaged disk or a hand-edit would.
    private static func sqlite(_ path: String, _ statement: String) throws {
        let python = ChildProcess()
        python.executableURL = URL(filePath: "/usr/bin/python3")
        python.arguments = ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()", path, statement]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
    }
}
