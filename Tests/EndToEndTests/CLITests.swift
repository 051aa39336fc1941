import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// The real `share` binary driving the real `shared` on a free port.
@Suite(.serialized) struct CLITests {
    private func records(_ json: String) throws -> [ShareRecord] {
        try WireJSON.decoder().decode([ShareRecord].self, from: Data(json.utf8))
    }

    @Test func aDayOfSharingFromAddToRm() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let server = daemon.address
        let file = folder.appending(path: "Q1 report.pdf")
        try Data(count: 1_234_567).write(to: file)

        let added = try share(["add", file.path, "--folder", "/reports"], server: server)
        #expect(added.status == 0, "\(added.stderr)")
        let id = try #require(added.stdout.split(separator: " ").first.map(String.init))
        #expect(added.stdout.hasPrefix("\(id)  Q1 report.pdf\n  link: \(server)/s/"), "uploaded, with its link: \(added.stdout)")

        let listed = try share(["ls", "/reports"], server: server)
        #expect(listed.stdout.contains("pdf   Q1 report.pdf  1.2 MB"))
        #expect(listed.stdout.hasSuffix("1 share\n"))

        #expect(try share(["find", "REPORT"], server: server).stdout.contains(id))
        #expect(try share(["find", "report", "q1"], server: server).stdout.contains(id), "words in any order")
        #expect(try share(["find", "\"report q1\""], server: server).stdout.hasSuffix("No shares.\n"), "a phrase stays literal")
        #expect(try share(["show", id.lowercased()], server: server).stdout.contains("size:    1.2 MB (1234567 bytes)"))
        #expect(try share(["rename", id, "Q1 final.docx"], server: server).stdout == "Renamed \(id) to Q1 final.docx\n")
        #expect(try share(["mv", id, "/archive/2021/"], server: server).stdout == "Moved \(id) to /archive/2021\n")
        let shown = try records("[" + share(["show", id, "--json"], server: server).stdout + "]")
        #expect(shown.first?.type == .doc && shown.first?.folder == "/archive/2021")

        #expect(try share(["rm", id], server: server).status == 64, "no --yes and stdin is not a terminal")
        #expect(try share(["rm", id, "--yes"], server: server).stdout == "Moved \(id) to the trash\n")
        #expect(try share(["ls"], server: server).stdout == "No shares.\n")
        #expect(try share(["trash"], server: server).stdout.contains(id))
        #expect(try share(["restore", id], server: server).status == 0)
        #expect(try share(["rm", id, "--purge", "--yes"], server: server).status == 0)
        #expect(try share(["trash", "--json"], server: server).stdout == "[]\n")
        #expect(daemon.stop() == 0)
    }

    @Test func jsonRoundTripsAndAllWalksEveryPage() async throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        for index in 0..<7 {
            let body = #"{"name": "file-\#(index).txt", "size": \#(index), "createdAt": "2021-01-17T0\#(index):00:00Z"}"#
            #expect(try await http("POST", "\(daemon.address)/share", body: body).status == 201)
        }
        let direct = try await http("GET", "\(daemon.address)/share?limit=3")
        #expect(try share(["--json", "ls", "--limit", "3"], server: daemon.address).stdout == direct.body + "\n")

        let everything = try share(["ls", "--all", "--json"], server: daemon.address)
        #expect(try records(everything.stdout).map(\.name) == (0..<7).reversed().map { "file-\($0).txt" })
        let oldestFirst = try share(["sort", "--all"], server: daemon.address)
        #expect(oldestFirst.stdout.split(separator: "\n").dropFirst().first?.contains("file-0.txt") == true)
        #expect(oldestFirst.stdout.hasSuffix("7 shares\n"))
        let truncated = try share(["ls", "--limit", "2"], server: daemon.address)
        #expect(truncated.stdout.hasSuffix("2 shares shown; more match (use --all or a larger --limit)\n"))
        #expect(daemon.stop() == 0)
    }

    @Test func dateIsTheUsersCalendarDay() async throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        // 23:30 UTC on the 16th is already the 17th in Shanghai.
        _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "late.pdf", "size": 1, "createdAt": "2021-01-16T23:30:00Z"}"#)
        let shanghai = try share(["ls", "--date", "2021-01-17", "--tz", "Asia/Shanghai"], server: daemon.address)
        #expect(shanghai.stdout.contains("late.pdf") && shanghai.stdout.contains("2021-01-17 07:30"))
        #expect(try share(["ls", "--date", "2021-01-17"], server: daemon.address).stdout == "No shares.\n")
        #expect(
            try share(["ls", "--date", "2021-01-17"], server: daemon.address, environment: ["SHARE_TIMEZONE": "Asia/Shanghai"])
                .stdout.contains("late.pdf"))
        #expect(daemon.stop() == 0)
    }

    @Test func aConfigHoldingATokenThatOthersCanReadIsWarnedAbout() throws {
        let folder = try temporaryFolder()
        let config = folder.appending(path: "share.toml")
        try "[client]\ntoken = \"team-secret\"\n".write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
        let readable = try share(["ls"], server: "http://127.0.0.1:9", environment: ["SHARE_CONFIG": config.path])
        #expect(readable.stderr.contains("share: warning: \(config.path) holds a token") && readable.stderr.contains("chmod 600"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let hidden = try share(["ls"], server: "http://127.0.0.1:9", environment: ["SHARE_CONFIG": config.path])
        #expect(!hidden.stderr.contains("warning"), "\(hidden.stderr)")
    }

    @Test func failuresAreOneLineWithTheirOwnExitStatus() throws {
        let folder = try temporaryFolder()
        try "[auth]\ntokens = [\"team-secret\"]\n".write(to: folder.appending(path: "share.toml"), atomically: true, encoding: .utf8)
        let daemon = try Daemon(folder: folder)

        let wrongToken = try share(["ls"], server: daemon.address, environment: ["SHARE_TOKEN": "guess"])
        #expect(wrongToken.status == 4)
        #expect(wrongToken.stderr.hasPrefix("share: the server refused the token"))
        #expect(wrongToken.stderr.split(separator: "\n").count == 1)

        let unknown = try share(["show", "NOSUCHID", "--token", "team-secret"], server: daemon.address)
        #expect(unknown.status == 5)
        #expect(unknown.stderr == "share: no share with id 'NOSUCHID'\n")

        let rejected = try share(["--token", "team-secret", "ls", "--type", "movie"], server: daemon.address)
        #expect(rejected.status == 6)
        #expect(rejected.stderr.contains("parameter 'type'"))

        let port = daemon.address.split(separator: ":").last!
        #expect(daemon.stop() == 0)
        let unreachable = try share(["ls"], server: "http://127.0.0.1:\(port)")
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("http://127.0.0.1:\(port)") && unreachable.stderr.contains("is shared running?"))
    }

    @Test func hostileNamesFromTheServerCannotReachTheTerminal() async throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        // The server refuses control characters; bidi overrides are legal names and still must be shown escaped.
        let created = try await http("POST", "\(daemon.address)/share", body: #"{"name": "invoice\u202Efdp.exe", "size": 1}"#)
        #expect(created.status == 201)
        let listed = try share(["ls"], server: daemon.address)
        #expect(listed.stdout.contains(#"invoice\u{202E}fdp.exe"#))
        #expect(!listed.stdout.unicodeScalars.contains("\u{202E}"))
        #expect(daemon.stop() == 0)
    }

    @Test func exportFromOneServerImportsIntoAnother() throws {
        let folder = try temporaryFolder()
        let source = folder.appending(path: "history.ndjson")
        let lines = (0..<5_000).map { #"{"name": "doc-\#($0).pdf", "size": \#($0), "id": "old-\#($0)", "createdAt": "2020-05-01T10:00:00Z"}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: source)
        let first = try Daemon(folder: try temporaryFolder())
        let imported = try share(["import", source.path], server: first.address)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 5000 shares\n")
        let exported = try share(["export"], server: first.address)
        #expect(exported.stdout.split(separator: "\n").count == 5_000)

        let second = try Daemon(folder: try temporaryFolder())
        let again = try share(["import", "-"], server: second.address, input: exported.stdout)
        #expect(again.stdout == "Imported 5000 shares\n")
        #expect(try share(["export"], server: second.address).stdout == exported.stdout)
        let duplicate = try share(["import", source.path], server: second.address)
        #expect(duplicate.status == 6, "every id is taken now")
        #expect(duplicate.stdout.hasPrefix("Imported 0 shares\n  line 1: a share with id 'old-0' exists already\n"))
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }

    @Test func theWholeHistoryMovesWithTheTrashAndEachRecordKeepsItsLog() throws {
        let first = try Daemon(folder: try temporaryFolder())
        let added = try share(["import", "-"], server: first.address, input: #"{"name": "a.pdf", "size": 1, "id": "MOVE1"}"# + "\n")
        #expect(added.status == 0)
        #expect(try share(["rename", "MOVE1", "b.pdf"], server: first.address).status == 0)
        #expect(try share(["rm", "MOVE1", "--yes"], server: first.address).status == 0)
        let log = try share(["log", "MOVE1"], server: first.address)
        #expect(log.status == 0)
        let actions = log.stdout.split(separator: "\n").dropFirst().map { line in ["imported", "renamed", "trashed"].first { line.contains($0) } }
        #expect(actions == ["imported", "renamed", "trashed"], "\(log.stdout)")
        #expect(log.stdout.contains("a.pdf → b.pdf") && log.stdout.contains("local"))
        let everything = try share(["export", "--with-trash"], server: first.address)
        #expect(everything.stdout.contains("\"trashedAt\""))
        #expect(try share(["export"], server: first.address).stdout.isEmpty, "the default export leaves the trash out")

        let second = try Daemon(folder: try temporaryFolder())
        #expect(try share(["import", "-"], server: second.address, input: everything.stdout).status == 0)
        #expect(try share(["export", "--with-trash"], server: second.address).stdout == everything.stdout)
        #expect(try share(["--json", "trash"], server: second.address).stdout.contains("MOVE1"))
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }

    @Test func overAUnixSocketToo() throws {
        let folder = try temporaryFolder()
        let socket = folder.appending(path: "shared.sock").path
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path])
        let file = folder.appending(path: "a.txt")
        try Data(count: 3).write(to: file)
        #expect(try share(["add", file.path], server: "unix:\(socket)").status == 0)
        #expect(try share(["ls"], server: "unix:\(socket)").stdout.contains("a.txt"))
        #expect(daemon.stop() == 0)
    }

    @Test func helpAfterAGlobalOptionIsTheOverviewNotTheHelpOfLs() throws {
        for arguments in [["--help"], ["--config", "share.toml", "--help"], ["--json", "--help"]] {
            let run = try share(arguments, server: "http://127.0.0.1:9")
            #expect(run.status == 0)
            #expect(run.stdout.contains("Look back through the files you shared"), "\(arguments): \(run.stdout.prefix(200))")
            #expect(run.stdout.contains("SUBCOMMANDS"))
        }
    }
}
