import Foundation
import PostgresNIO
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Synchronization
import Testing

/// `shared` on PostgreSQL as a team runs it: several nodes behind nginx on one database, a node killed, the
/// database restarted, a SQLite history moved up. Were any of it to fail, a write the user saw acknowledged could be
/// lost, a balancer would keep sending requests to a node that cannot answer them, or a move would change the
/// history.
@Suite struct PostgresDeploymentTests {
    /// Two nodes behind an nginx upstream, writers on both through it; one node is killed (SIGKILL) half-way.
    @Test func twoNodesBehindNginxKeepEveryAcknowledgedWriteWhenOneIsKilled() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("two-nodes")
            let environment = ["SHARE_DATABASE_URL": try TestPostgres.url(of: name)]
            let nodes = try (0..<2).map { _ in try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment) }
            let port = try freePort()
            let base = "http://127.0.0.1:\(port)"
            // The site file the README gives for several nodes, with this test's nodes and port.
            let site = try String(contentsOf: Self.deployFolder.appending(path: "nginx/share-nodes.conf"), encoding: .utf8)
            let servers = nodes.map { "server \($0.address.dropFirst("http://".count)) max_fails=1 fail_timeout=5s;" }
            let server = site.replacingOccurrences(
                of: "    server 10.0.0.11:8080 max_fails=1 fail_timeout=5s;\n    server 10.0.0.12:8080 max_fails=1 fail_timeout=5s;",
                with: servers.joined(separator: "\n")
            ).replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
            #expect(server.contains(servers[1]))
            let proxy = try Proxy.nginx(server: server, in: folder, isReady: { (try? RawConnection(port: port)) != nil })
            defer { proxy.stop() }

            // The real CLI through the balancer: one history whichever node answers.
            let file = folder.appending(path: "report.pdf")
            try Data("x".utf8).write(to: file)
            #expect(try share(["add", file.path], server: base).status == 0)
            for node in nodes { #expect(try share(["find", "report", "--json"], server: node.address).stdout.contains("report.pdf")) }

            let acknowledged = Guarded<[String]>([])
            let unexpected = Guarded<[String]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for number in 0..<40 {
                            let id = "w\(writer)-\(number)"
                            let result = try? await http("POST", "\(base)/share", body: #"{"name": "\#(id).txt", "size": 3, "id": "\#(id)"}"#)
                            switch result?.status {
                            // The answer names the record it stored: one naming another would be the client's mix-up.
                            case 201 where result?.body.contains(#""id":"\#(id)""#) == true: acknowledged.withLock { $0.append(id) }
                            // The node died with the request in flight: nginx does not send a POST twice.
                            case 502, nil: break
                            case let status: unexpected.withLock { $0.append("\(id): \(status.map(String.init) ?? "")") }
                            }
                        }
                    }
                }
                group.addTask {
                    try await waitUntil("sixty writes acknowledged", within: .seconds(300)) { acknowledged.withLock { $0.count } >= 60 }
                    nodes[0].stop(signal: SIGKILL)
                }
                try await group.waitForAll()
            }
            #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0 })")
            let listed = try share(["ls", "--all", "--json"], server: base)
            let ids = Set(try WireJSON.decoder().decode([ShareRecord].self, from: Data(listed.stdout.utf8)).map(\.id))
            let lost = acknowledged.withLock { $0 }.filter { !ids.contains($0) }
            var found: [String] = []
            for id in lost { found.append("\(id): \(try await http("GET", "\(nodes[1].address)/share/\(id)?trashed=true"))") }
            #expect(lost.isEmpty, "acknowledged but not listed: \(lost); each asked of the node alive: \(found)")
            #expect(acknowledged.withLock { $0.count } > 200, "the other node kept answering after the kill")
            #expect(try await http("GET", "\(nodes[1].address)/readyz").status == 200)
            // Swift may end a value's life after its last use: the nodes (and their processes) live to here.
            withExtendedLifetime(nodes) {}
        }
    }

    /// The same id given to both nodes at the same moment: the database decides, one gets 201 and the other 409.
    @Test func anIdGivenToTwoNodesAtOnceIsStoredOnceAndTheOtherIsAConflict() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("same-id")
            let environment = ["SHARE_DATABASE_URL": try TestPostgres.url(of: name)]
            let nodes = try (0..<2).map { _ in try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment) }
            for round in 0..<20 {
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for node in nodes {
                        group.addTask {
                            try await http("POST", "\(node.address)/share", body: #"{"name": "a.txt", "size": 1, "id": "Same-\#(round)"}"#).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.sorted() == [201, 409], "round \(round)")
            }
            #expect(try await http("GET", "\(nodes[0].address)/share?limit=100").body.components(separatedBy: "\"id\"").count - 1 == 20)
            withExtendedLifetime(nodes) {}
        }
    }

    /// The database stopped while requests keep coming: they get 503 problems (never a 500), /readyz says 503 and
    /// /healthz 200; started again, the same `shared` answers again by itself, with the history intact.
    @Test func aStoppedDatabaseGives503sAndTheNodeRecoversByItselfWhenItIsBack() async throws {
        let cluster = try OwnCluster()
        let folder = try temporaryFolder("database-restart")
        let node = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: ["SHARE_DATABASE_URL": try cluster.newDatabase()])
        for number in 0..<5 { _ = try await http("POST", "\(node.address)/share", body: #"{"name": "before-\#(number).txt", "size": 1}"#) }
        let statuses = Guarded<Set<Int>>([])
        let stopping = Guarded(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A failing wait cancels the group, whose end waits for this loop: it stops then too.
                while !stopping.withLock({ $0 }) && !Task.isCancelled {
                    let result = try await http("POST", "\(node.address)/share", body: #"{"name": "during.txt", "size": 1}"#)
                    statuses.withLock { _ = $0.insert(result.status) }
                }
            }
            try cluster.pause()
            let refused = try await waitFor { try await http("GET", "\(node.address)/share") }
            #expect(refused.status == 503 && refused.headers["retry-after"] != nil, "\(refused)")
            #expect(refused.body.contains("the database does not answer"))
            #expect(try await http("GET", "\(node.address)/readyz").status == 503)
            #expect(try await http("GET", "\(node.address)/healthz").status == 200)
            try cluster.resume()
            _ = try await waitFor {
                try await http("GET", "\(node.address)/readyz")
            } until: {
                $0.status == 200
            }
            stopping.withLock { $0 = true }
            try await group.waitForAll()
        }
        #expect(statuses.withLock { $0 }.isSubset(of: [201, 503]), "\(statuses.withLock { $0 })")
        let listed = try share(["find", "before", "--json"], server: node.address)
        #expect(listed.status == 0 && listed.stdout.components(separatedBy: "before-").count - 1 == 5, "\(listed.stderr)")
        withExtendedLifetime(cluster) {}
    }

    /// Writers busy on one node (creates, renames, batches) while the database crashes and restarts three times:
    /// every request is answered, with its change or a 503 to try again, never left waiting; and SIGTERM then stops
    /// the node within its `shutdown_seconds`.
    @Test func everyRequestIsAnsweredAcrossDatabaseCrashesAndTheNodeStillStops() async throws {
        let cluster = try OwnCluster()
        let folder = try temporaryFolder("database-crashes")
        let node = try Daemon(
            folder: folder, arguments: ["--listen", "127.0.0.1:0"],
            environment: ["SHARE_DATABASE_URL": try cluster.newDatabase(), "SHARE_SERVER_SHUTDOWN_SECONDS": "3"])
        let statuses = Guarded<[Int: Int]>([:])
        let unanswered = Guarded<[String]>([])
        let stopping = Guarded(false)
        func changed() -> Int { statuses.withLock { $0[200, default: 0] + $0[201, default: 0] } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    var ids: [String] = []
                    var turn = 0
                    // A failing wait cancels the group, whose end waits for these loops: they stop then too.
                    while !stopping.withLock({ $0 }) && !Task.isCancelled {
                        turn += 1
                        let request: (String, String, String) =
                            switch ids.isEmpty ? 0 : turn % 3 {
                            case 0: ("POST", "/share", #"{"name": "w\#(writer)-\#(turn).txt", "size": 1, "id": "W\#(writer)-\#(turn)"}"#)
                            case 1: ("PATCH", "/share/\(ids.randomElement()!)", #"{"name": "renamed \#(turn).txt"}"#)
                            default: ("POST", "/share/batch", #"{"action": "move", "folder": "/moved", "ids": ["\#(ids.randomElement()!)"]}"#)
                            }
                        do {
                            let result = try await http(request.0, "\(node.address)\(request.1)", body: request.2, timeout: 20)
                            statuses.withLock { $0[result.status, default: 0] += 1 }
                            if result.status == 201 { ids.append("W\(writer)-\(turn)") }
                        } catch {
                            unanswered.withLock { $0.append("\(request.0) \(request.1): \(error)") }
                        }
                    }
                }
            }
            for crashes in 0...3 {
                let before = changed()
                // The first minute of a full run starts hundreds of tests at once: the node may take most of it.
                try await waitUntil("writers changed records again", within: .seconds(300)) { changed() >= before + 30 }
                if crashes < 3 { try cluster.crash() }
            }
            stopping.withLock { $0 = true }
            try await group.waitForAll()
        }
        #expect(unanswered.withLock { $0 }.isEmpty, "\(unanswered.withLock { $0 })")
        #expect(Set(statuses.withLock { $0 }.keys).isSubset(of: [200, 201, 503]), "\(statuses.withLock { $0 })")
        #expect(await node.stop(within: .seconds(3 + 2)) == 0, "SIGTERM stops the node within shutdown_seconds")
        withExtendedLifetime(cluster) {}
    }

    /// `shared migrate` moves a 100,000-record SQLite history (trash included, links with their tokens and limits,
    /// the files behind shares, webhooks with their secrets, the feed's address) to PostgreSQL; the export from either
    /// is the same bytes, and so is every file. A file that no longer matches its hash stops the copy with nothing kept.
    @Test func aMigratedHistoryExportsTheSameBytesAsTheFileItCameFrom() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("migrate")
            let sqlite = try Daemon(
                folder: folder, environment: ["SHARE_DATABASE_TRASH_DAYS": "0", "SHARE_HOOKS_ALLOW_PRIVATE_ADDRESSES": "true"])
            // A webhook nothing answers, made before the history: its deliveries wait, and are counted, not carried.
            let hook = try WireJSON.decoder().decode(
                Hook.self, from: Data(try await http("POST", sqlite.address + "/hooks", body: #"{"url": "http://127.0.0.1:9/in"}"#).body.utf8))
            let feed = try await http("GET", sqlite.address + "/me").body.firstMatch(of: /"feedUrl":"([^"]+)"/)?.1
            // A file request whose link was sent out: it keeps opening after the move.
            let request = try await http("POST", sqlite.address + "/requests", body: #"{"title": "Receipts", "folder": "/in", "maxFiles": 5}"#)
            let requestLink = try #require(request.body.firstMatch(of: /"link":"([^"]+)"/)?.1)
            let records = folder.appending(path: "records.ndjson")
            try Self.history(records: 100_000).write(to: records)
            #expect(try share(["import", records.path], server: sqlite.address).status == 0)
            // A download through a link, which the copy carries in the share's access log.
            let linked = try WireJSON.decoder().decode(ShareRecord.self, from: Data(try await http("GET", sqlite.address + "/share/M9").body.utf8))
            let link = sqlite.address + (linked.link ?? "") + "/file?code=C0de9"
            #expect(try await http("GET", link, followingRedirects: false).status == 302)
            let downloads = try await http("GET", sqlite.address + "/share/M9/downloads").body
            #expect(downloads.contains(#""complete":true"#))
            let events = try await http("GET", sqlite.address + "/share/M9/events").body
            #expect(events.contains(#""action":"downloaded","#) && events.contains(#""downloads":"#), "the download's count, in its event: \(events)")
            // Files: the same bytes shared twice, kept once; the larger spans several chunks.
            let film = folder.appending(path: "film.mp4")
            let filmBytes = try randomBytes(2 * 1_048_576 + 17, writtenTo: film)
            let added = try share(["add", film.path], server: sqlite.address)
            let filmID = try #require(added.stdout.split(separator: " ").first.map(String.init), "\(added.stderr)")
            #expect(try share(["add", film.path, "--name", "again.mp4"], server: sqlite.address).status == 0)
            try randomBytes(10, writtenTo: folder.appending(path: "note.txt"))
            #expect(try share(["add", folder.appending(path: "note.txt").path], server: sqlite.address).status == 0)
            // Several files under one link: their list travels with the record (the export compares it).
            try randomBytes(5, writtenTo: folder.appending(path: "readme.txt"))
            let together = try share(
                ["add", folder.appending(path: "readme.txt").path, folder.appending(path: "note.txt").path, "--together"], server: sqlite.address)
            let bundleID = try #require(together.stdout.split(separator: " ").first.map(String.init), "\(together.stderr)")
            let before = try share(["export", "--with-trash"], server: sqlite.address)
            // Statistics read the running totals, which the copy makes at its end: the same as the file's.
            let statistics = ["/share/stats?by=day&tz=Asia/Kolkata", "/share/stats?trashed=true&by=month", "/share/folders?parent=/"]
            var answers: [String] = []
            for path in statistics { answers.append(try await http("GET", sqlite.address + path).body) }
            sqlite.stop()
            let url = try TestPostgres.url(of: name)
            let migrate = ["migrate", "--to", url, "--db", folder.appending(path: "share.db").path]
            let filmFile = try #require(blobFiles(folder).max { (Self.fileSize($0) ?? 0) < (Self.fileSize($1) ?? 0) })
            try Data(filmBytes.reversed()).write(to: URL(filePath: filmFile))
            let refused = try Daemon.run(migrate, in: folder, seconds: 300)
            #expect(refused.status != 0 && refused.output.contains("whose hash is"), "a changed file stops the copy: \(refused.output)")
            try filmBytes.write(to: URL(filePath: filmFile))
            let migrated = try Daemon.run(migrate, in: folder, seconds: 300)
            #expect(migrated.status == 0, "nothing was kept of the refused copy: \(migrated.output)")
            #expect(
                migrated.output.contains("migrated 100004 records") && migrated.output.contains("1 downloads and 3 files")
                    && migrated.output.contains("with 1 webhooks, 1 feed addresses and 1 file requests")
                    && migrated.output.contains("events still to send"), "\(migrated.output)")
            // The planner's statistics describe the copy at once, not when autovacuum gets to it.
            let analysed = try await TestPostgres.withClient(database: name) { client in
                var counts: [Int64] = []
                let rows = try await client.query("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'share_total_quarter'")
                for try await count in rows.decode(Int64.self) { counts.append(count) }
                return counts
            }
            #expect(analysed == [1])
            // The trash is kept (trash_days = 0): these records were trashed long ago.
            let postgres = try Daemon(
                folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: ["SHARE_DATABASE_URL": url, "SHARE_DATABASE_TRASH_DAYS": "0"])
            let after = try share(["export", "--with-trash"], server: postgres.address)
            #expect(after.stdout.count == before.stdout.count && after.stdout == before.stdout, "the export is the same bytes")
            #expect(try await http("GET", postgres.address + "/share/M9/downloads").body == downloads, "the access log is copied")
            #expect(try await http("GET", postgres.address + "/share/M9/events").body == events, "the events, with the download's count")
            let hooks = try await http("GET", postgres.address + "/hooks").body
            #expect(hooks.contains(hook.id) && hooks.contains("http://127.0.0.1:9/in"), "the webhook is copied: \(hooks)")
            #expect(try await http("GET", postgres.address + "/me").body.firstMatch(of: /"feedUrl":"([^"]+)"/)?.1 == feed, "the feed's address")
            let secret = try await TestPostgres.withClient(database: name) { client in
                try await Self.single(String.self, "SELECT secret FROM hook", client)
            }
            #expect(secret == hook.secret, "the receiver's secret still checks its deliveries")
            let requestPage = try await http("GET", postgres.address + requestLink)
            #expect(requestPage.status == 200 && requestPage.body.contains("Receipts"), "the file request's link opens where it did")
            let fetched = folder.appending(path: "fetched.mp4")
            #expect(try share(["get", filmID, "-o", fetched.path], server: postgres.address).status == 0)
            #expect(try Data(contentsOf: fetched) == filmBytes, "the file is copied")
            let note = try await http("GET", postgres.address + "/share/\(bundleID)/files/1")
            #expect(note.status == 200 && note.headers["content-length"] == "10", "a file of several, found where its list says")
            for (path, answer) in zip(statistics, answers) {
                let migratedAnswer = try await http("GET", postgres.address + path).body
                #expect(migratedAnswer == answer, "\(path): SQLite said \(answer)")
            }
            let again = try Daemon.run(migrate, in: folder)
            #expect(again.status != 0 && again.output.contains("already holds a history"), "\(again.output)")
        }
    }

    /// A wrong password is said to be one: the database refuses the sign-in, which is not a database that does not
    /// answer.
    @Test func aWrongPasswordIsReportedAsARefusedSignInAtStart() throws {
        let cluster = try OwnCluster(tcpPort: try freePort())
        let database = try cluster.newDatabaseName()
        _ = try cluster.psql("ALTER USER postgres PASSWORD 'right-secret'")
        let hba = cluster.folder + "/data/pg_hba.conf"
        try "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n".write(toFile: hba, atomically: true, encoding: .utf8)
        _ = try cluster.psql("SELECT pg_reload_conf()")
        let folder = try temporaryFolder("wrong-password")
        let url = "postgres://postgres@127.0.0.1:\(cluster.port!)/\(database)?sslmode=disable"
        let run = try Daemon.run(
            ["--listen", "127.0.0.1:0"], in: folder, environment: ["SHARE_DATABASE_URL": url, "PGPASSWORD": "wrong-secret"], seconds: 60)
        #expect(run.status != 0 && run.output.contains("PostgreSQL refused to sign in user 'postgres'"), "\(run.output)")
        #expect(!run.output.contains("wrong-secret"), "the password is never repeated")
        withExtendedLifetime(cluster) {}
    }

    /// Automatic backups on PostgreSQL run `pg_dump`: a node without it refuses to start and says so, rather than
    /// serving with backups that never come.
    @Test func automaticBackupsWithoutPgDumpAreRefusedAtStart() throws {
        let folder = try temporaryFolder("no-pg-dump")
        let run = try Daemon.run(
            ["--listen", "127.0.0.1:0"], in: folder,
            environment: [
                "SHARE_DATABASE_URL": "postgresql://share@/share?host=/nonexistent", "SHARE_DATABASE_BACKUP_DIR": folder.appending(path: "b").path,
                "PATH": folder.path,
            ])
        #expect(run.status != 0 && run.output.contains("run pg_dump, which is not on PATH"), "\(run.output)")
    }

    /// The one value of a query's one row.
    static func single<T: PostgresDecodable & Sendable>(_ type: T.Type, _ sql: String, _ client: PostgresClient) async throws -> T {
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql)).decode(T.self) { return value }
        throw DaemonError(description: "no row: \(sql)")
    }

    static let deployFolder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../deploy").standardized

    /// NDJSON of `records` records as an export holds them: names in several scripts, folders, one in 20 trashed.
    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    private static func history(records: Int) -> Data {
        var generator = SplitMix(seed: 21)
        let words = ["report", "photo", "年度报告", "résumé", "プラン", "budget"]
        var lines = ""
        for line in 0..<records {
            let created = Timestamp(millisecondsSinceEpoch: 1_600_000_000_000 + Int64.random(in: 0..<200_000_000_000, using: &generator))
            let trashed = line % 20 == 0 ? #", "trashedAt": "\#(Timestamp(millisecondsSinceEpoch: created.millisecondsSinceEpoch + 1000))""# : ""
            // Some made elsewhere, with links whose tokens and limits the copy keeps.
            let linked =
                line % 9 == 0
                ? #", "source": "https://drive.example.com/s/\#(line)", "maxDownloads": \#(line % 4 + 1), "code": "C0de\#(line)", "downloads": 1"#
                : ""
            let name = "\(words.randomElement(using: &generator)!) \(line).\(["pdf", "jpg", "txt"].randomElement(using: &generator)!)"
            lines +=
                #"{"id": "M\#(line)", "name": "\#(name)", "folder": "/f\#(line % 7)", "createdAt": "\#(created)", "size": \#(line)\#(trashed)\#(linked)}"#
                + "\n"
        }
        return Data(lines.utf8)
    }
}

/// Calls `request` until `condition` holds of its answer (within 60 s), and returns that answer; by default, until
/// it is a 503.
private func waitFor(
    _ request: () async throws -> HTTPResult, until condition: (HTTPResult) -> Bool = { $0.status == 503 }
) async throws -> HTTPResult {
    var result = try await request()
    try await waitUntil("the answer wanted") {
        if condition(result) { return true }
        result = try await request()
        return condition(result)
    }
    return result
}

/// A value tasks share, behind a lock.
private final class Guarded<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { body(&$0) }
    }
}
