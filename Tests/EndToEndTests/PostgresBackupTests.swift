import Foundation
import PostgresNIO
import ShareChildProcess
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Synchronization
import Testing

/// Automatic backups of a history on PostgreSQL, taken by every node of a team's deployment.
@Suite struct PostgresBackupTests {
    /// Two nodes back the database up every 2 s with `pg_dump`: between them one backup per interval (the database
    /// keeps the record, under an advisory lock), each folder keeps its newest two, and the newest, restored with
    /// `pg_restore` into a new database, exports the same bytes as the history it was taken from.
    @Test func twoNodesTakeOneBackupPerIntervalAndTheNewestRestores() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("automatic-backups")
            let folders = (0..<2).map { folder.appending(path: "backups-\($0)") }
            let nodes = try folders.map { backups in
                try Daemon(
                    folder: folder, arguments: ["--listen", "127.0.0.1:0"],
                    environment: [
                        "SHARE_DATABASE_URL": try TestPostgres.url(of: name), "SHARE_DATABASE_BACKUP_DIR": backups.path,
                        "SHARE_DATABASE_BACKUP_EVERY": "2s", "SHARE_DATABASE_BACKUP_KEEP": "2",
                    ])
            }
            let file = folder.appending(path: "報告.pdf")
            try Data("report".utf8).write(to: file)
            #expect(try share(["add", file.path, "--folder", "/2026"], server: nodes[0].address).status == 0)
            for number in 0..<20 {
                _ = try await http("POST", "\(nodes[number % 2].address)/share", body: #"{"name": "note-\#(number).txt", "size": \#(number)}"#)
            }
            try await TestPostgres.withClient(database: name) { client in
                let written = try await PostgresDeploymentTests.single(
                    Int64.self, "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint", client)
                // Five backups in all, the newest taken after the last write.
                try await waitUntil("five backups, the newest after the last write", within: .seconds(120)) {
                    let after = try await PostgresDeploymentTests.single(
                        Int.self, "SELECT count(*) FROM share_backup_run WHERE taken_at > \(written)", client)
                    let all = try await PostgresDeploymentTests.single(Int.self, "SELECT count(*) FROM share_backup_run", client)
                    return after >= 1 && all >= 5
                }
            }
            let expected = try share(["export", "--with-trash"], server: nodes[0].address).stdout
            // Stopped before their backups are listed: a later backup would prune the newest one listed.
            for node in nodes { #expect(node.stop() == 0) }
            let backups = try await TestPostgres.withClient(database: name) { client in
                var runs: [(at: Int64, file: String)] = []
                for try await run in try await client.query("SELECT taken_at, file FROM share_backup_run ORDER BY taken_at").decode(
                    (Int64, String).self)
                {
                    runs.append(run)
                }
                return runs
            }
            let spacing = zip(backups, backups.dropFirst()).map { $1.at - $0.at }
            #expect(spacing.allSatisfy { $0 >= 2000 }, "milliseconds between backups: \(spacing)")
            for backups in folders {
                let files = try FileManager.default.contentsOfDirectory(atPath: backups.path)
                #expect(files.count <= 2 && files.allSatisfy { $0.hasSuffix(".dump") }, "\(files)")
                for file in files {
                    let mode = try FileManager.default.attributesOfItem(atPath: backups.appending(path: file).path)[.posixPermissions] as? Int
                    #expect(mode == 0o600, "\(file) is the owner's alone, as SQLite's backups are")
                }
            }
            let newest = try #require(backups.last).file
            try await TestPostgres.withDatabase { restoredName in
                let restore = ChildProcess()
                restore.executableURL = URL(filePath: "/usr/bin/pg_restore")
                restore.arguments = ["--dbname=\(try TestPostgres.url(of: restoredName))", newest]
                try restore.run()
                restore.waitUntilExit()
                #expect(restore.terminationStatus == 0)
                let restored = try Daemon(
                    folder: folder, arguments: ["--listen", "127.0.0.1:0"],
                    environment: ["SHARE_DATABASE_URL": try TestPostgres.url(of: restoredName)])
                let exported = try share(["export", "--with-trash"], server: restored.address).stdout
                #expect(exported.contains("報告.pdf") && exported == expected, "the restored history exports the same bytes")
            }
        }
    }
}
