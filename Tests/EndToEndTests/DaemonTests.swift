import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

@Suite(.serialized) struct DaemonTests {
    @Test func startsFromAnyFolderServesTheMobileContractAndStoresRecords() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        #expect(try await http("GET", "\(daemon.address)/share").body == "[]")
        let created = try await http("POST", "\(daemon.address)/share", body: #"{"name": "report.pdf", "size": 1200000}"#)
        #expect(created.status == 201)
        let listed = try await http("GET", "\(daemon.address)/share")
        let records = try WireJSON.decoder().decode([ShareRecord].self, from: Data(listed.body.utf8))
        #expect(records.map(\.name) == ["report.pdf"])
        #expect(daemon.stop() == 0, "SIGTERM shuts down cleanly")
    }

    @Test func withNoConfigTheDatabaseIsCreatedInTheUsersDataFolder() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"])
        #expect(try await http("GET", "\(daemon.address)/readyz").status == 200)
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: ".local/share/share/share.db").path))
        #expect(daemon.stop() == 0)
    }

    @Test func aRecordAnswered201SurvivesAKilledProcess() async throws {
        let folder = try temporaryFolder()
        let first = try Daemon(folder: folder)
        let created = try await http("POST", "\(first.address)/share", body: #"{"name": "kept.txt", "size": 1}"#)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(created.body.utf8))
        first.stop(signal: SIGKILL)
        let second = try Daemon(folder: folder)
        #expect(try await http("GET", "\(second.address)/share/\(record.id)").status == 200)
        #expect(second.stop() == 0)
    }

    @Test func concurrentClientsAllGetTheirRecordsStored() async throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<60 {
                group.addTask { try await http("POST", "\(daemon.address)/share", body: #"{"name": "f\#(index).txt", "size": 1}"#).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 60))
        let listed = try await http("GET", "\(daemon.address)/share?limit=1000")
        #expect(try WireJSON.decoder().decode([ShareRecord].self, from: Data(listed.body.utf8)).count == 60)
        #expect(daemon.stop() == 0)
    }

    @Test func tokensFromATokenFileGuardTheAPI() async throws {
        let folder = try temporaryFolder()
        try "# team tokens\n\nteam-token-1\n".write(to: folder.appending(path: "tokens"), atomically: true, encoding: .utf8)
        try "[auth]\ntoken_file = \"tokens\"\n".write(to: folder.appending(path: "share.toml"), atomically: true, encoding: .utf8)
        let daemon = try Daemon(folder: folder)
        #expect(try await http("GET", "\(daemon.address)/share").status == 401)
        #expect(try await http("GET", "\(daemon.address)/share", headers: ["Authorization": "Bearer team-token-1"]).status == 200)
        #expect(try await http("GET", "\(daemon.address)/healthz").status == 200)
        #expect(daemon.stop() == 0)
    }

    @Test func servesOverAUnixSocket() throws {
        let folder = try temporaryFolder()
        let socket = folder.appending(path: "shared.sock").path
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path])
        #expect(daemon.address == socket)
        #expect(try curl(socket: socket, "GET", "/share").body == "[]")
        #expect(daemon.stop() == 0)
    }
}

@Suite struct StartupRefusalTests {
    @Test func refusesToListenBeyondLoopbackWithoutTokens() throws {
        let folder = try temporaryFolder()
        let run = try Daemon.run(["--listen", "0.0.0.0:0", "--db", folder.appending(path: "s.db").path], in: folder)
        #expect(run.status != 0)
        #expect(run.output.contains("refusing to listen on 0.0.0.0:0"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "s.db").path))
    }

    @Test func refusesAFileThatIsNotADatabaseAndLeavesItAlone() throws {
        let folder = try temporaryFolder()
        let file = folder.appending(path: "notes.db")
        let contents = Data("shopping list: milk, eggs\n".utf8)
        try contents.write(to: file)
        let run = try Daemon.run(["--listen", "127.0.0.1:0", "--db", file.path], in: folder)
        #expect(run.status != 0)
        #expect(run.output.contains("\(file.path) is not a SQLite database"))
        #expect(try Data(contentsOf: file) == contents)
    }

    @Test func anUnknownConfigKeyStopsStartupNamingIt() throws {
        let folder = try temporaryFolder()
        try "[server]\nlisen = \"127.0.0.1:0\"\n".write(to: folder.appending(path: "share.toml"), atomically: true, encoding: .utf8)
        let run = try Daemon.run([], in: folder)
        #expect(run.status != 0)
        #expect(run.output.contains("server.lisen"))
    }

    @Test func checkConfigValidatesWithoutServing() throws {
        let folder = try temporaryFolder()
        let run = try Daemon.run(["--check-config"], in: folder, environment: ["SHARE_SERVER_LISTEN": "127.0.0.1:9999"])
        #expect(run.status == 0)
        #expect(run.output.contains("configuration OK"))
        #expect(run.output.contains("127.0.0.1:9999"))
        let bad = try Daemon.run(["--check-config"], in: folder, environment: ["SHARE_SERVER_LISTEN": "nowhere"])
        #expect(bad.status != 0)
        #expect(bad.output.contains("SHARE_SERVER_LISTEN"))
    }
}
