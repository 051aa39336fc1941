import Foundation
import ShareClient
import ShareTestSupport
import Testing

@testable import ShareCLI

@Suite struct RequestTests {
    @Test func dateIsTheUsersDaySentWithTheirZone() throws {
        let transport = FakeTransport().on("GET", "\(server)/share?date=2021-01-17&tz=Asia%2FShanghai", body: "[]")
        _ = try runShare(["ls", "--date", "2021-01-17", "--tz", "Asia/Shanghai"], transport: transport)
        #expect(transport.isDone)
        let configured = FakeTransport().on("GET", "\(server)/share?date=2021-01-17&tz=Europe%2FParis", body: "[]")
        _ = try runShare(["ls", "--date", "2021-01-17"], transport: configured, environment: ["SHARE_TIMEZONE": "Europe/Paris"])
        #expect(configured.isDone)
    }

    @Test func filtersFoldersSortingAndPagingBecomeParameters() throws {
        let transport = FakeTransport()
            .on(
                "GET", "\(server)/share?folder=%2Freports&from=2021-01-01&to=2021-01-31&type=pdf%2Cdoc&tz=UTC&sort=size&order=asc&limit=5", body: "[]"
            )
            .on("GET", "\(server)/share?q=100%25%20%E6%8A%A5%E5%91%8A&sort=name&order=desc", body: "[]")
            .on("GET", "\(server)/share?q=draft%20report", body: "[]")
            .on("GET", "\(server)/share?sort=createdAt&order=asc", body: "[]")
            .on("GET", "\(server)/share?sort=size&order=desc&limit=3", body: "[]")
            .on("GET", "\(server)/share?trashed=true", body: "[]")
        _ = try runShare(
            [
                "ls", "/reports", "--from", "2021-01-01", "--to", "2021-01-31", "--type", "pdf,doc", "--sort", "size", "--asc", "--limit", "5",
                "--tz", "UTC",
            ],
            transport: transport)
        _ = try runShare(["find", "100% 报告", "--sort", "name", "--desc"], transport: transport)
        _ = try runShare(["find", "draft", "report"], transport: transport)
        _ = try runShare(["sort"], transport: transport)
        _ = try runShare(["sort", "--by", "size", "--desc", "--limit", "3"], transport: transport)
        _ = try runShare(["trash"], transport: transport)
        #expect(transport.isDone)
    }

    /// An admin's `--user` names the history of every request that reads or changes one; `/me` stays the caller's.
    @Test func anAdminsUserGoesWithEveryRequestOfTheHistory() throws {
        let transport = FakeTransport()
            .on("GET", "\(server)/share?type=pdf&user=bob", body: "[]")
            .on("DELETE", "\(server)/share/7K2M9QDX?purge=true&user=bob", status: 204)
            .on("POST", "\(server)/share/7K2M9QDX/restore?user=bob", body: recordJSON())
            .on("GET", "\(server)/me", body: #"{"user":"alice","admin":true,"histories":"per-user","usedBytes":0}"#)
            .on("GET", "\(server)/share/export?trashed=include&everyone=true", body: "")
        _ = try runShare(["--user", "bob", "ls", "--type", "pdf"], transport: transport)
        _ = try runShare(["rm", "7K2M9QDX", "--purge", "--yes", "--user", "bob"], transport: transport)
        _ = try runShare(["restore", "7K2M9QDX", "--user", "bob"], transport: transport)
        _ = try runShare(["whoami", "--user", "bob"], transport: transport)
        _ = try runShare(["export", "--with-trash", "--everyone"], transport: transport)
        #expect(transport.isDone)
        let badName = try runShare(["--user", "bob smith", "ls"], transport: FakeTransport())
        #expect(badName.exitStatus == 64 && badName.failure?.contains("--user must be a user name") == true)
    }

    @Test func allFollowsTheLinkPagesAndJSONJoinsThemExactly() throws {
        let first = recordJSON()
        let second = recordJSON(id: "3D4F5G6H", name: "b.pdf")
        let transport = FakeTransport()
            .on("GET", "\(server)/share?limit=1000", headers: ["link": "</share?limit=1000&cursor=abc>; rel=\"next\""], body: "[\(first)]")
            .on("GET", "\(server)/share?limit=1000&cursor=abc", body: "[\(second)]")
        let run = try runShare(["--json", "ls", "--all"], transport: transport)
        #expect(run.output == "[\(first),\(second)]\n")
        #expect(transport.isDone)
    }

    @Test func jsonPrintsTheServersBodyByteForByte() throws {
        let body =
            #"[{"createdAt":"2021-01-17T12:40:00.000Z","folder":"/","id":"7K2M9QDX","name":"a/b\u00e9.pdf","size":1,"type":"pdf","extra":true}]"#
        let run = try runShare(["ls", "--json"], transport: FakeTransport().on("GET", "\(server)/share", body: body))
        #expect(run.output == body + "\n")
    }

    @Test func tokensComeFromTheFlagOrTheEnvironment() throws {
        let transport = FakeTransport().on("GET", "\(server)/share", body: "[]").on("GET", "\(server)/share", body: "[]")
        _ = try runShare(["ls"], transport: transport, environment: ["SHARE_TOKEN": "from-env"])
        _ = try runShare(["--token", "from-flag", "ls"], transport: transport, environment: ["SHARE_TOKEN": "from-env"])
        #expect(transport.sent.map { $0.headers["Authorization"] } == ["Bearer from-env", "Bearer from-flag"])
    }

    @Test func changesSendTheirBodies() throws {
        let transport = FakeTransport()
            .on("PATCH", "\(server)/share/7K2M9QDX", body: recordJSON(name: "final.docx", type: "doc"))
            .on("PATCH", "\(server)/share/7K2M9QDX", body: recordJSON(folder: "/archive"))
            .on("POST", "\(server)/share/7K2M9QDX/restore", body: recordJSON())
        #expect(try runShare(["rename", "7K2M9QDX", "final.docx"], transport: transport).output == "Renamed 7K2M9QDX to final.docx\n")
        #expect(try runShare(["mv", "7K2M9QDX", "/archive"], transport: transport).output == "Moved 7K2M9QDX to /archive\n")
        #expect(try runShare(["restore", "7K2M9QDX"], transport: transport).output == "Restored 7K2M9QDX (report.pdf)\n")
        let bodies = transport.sent.map { $0.body.map { String(decoding: $0, as: UTF8.self) } }
        #expect(bodies == [#"{"name":"final.docx"}"#, #"{"folder":"/archive"}"#, nil])
    }

    @Test func addRecordOnlyRecordsEachFilesNameAndSize() throws {
        let folder = try temporaryFolder("add")
        try Data(count: 1234).write(to: folder.appending(path: "report.pdf"))
        let transport = FakeTransport().on("POST", "\(server)/share", status: 201, body: recordJSON(name: "Signed.pdf", size: 1234))
        let run = try runShare(
            ["add", folder.appending(path: "report.pdf").path, "--name", "Signed.pdf", "--folder", "/contracts", "--record-only"],
            transport: transport)
        #expect(run.output == "7K2M9QDX  Signed.pdf\n")
        let body = try #require(transport.sent.first?.body)
        let sent = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(sent?["name"] as? String == "Signed.pdf")
        #expect(sent?["size"] as? Int == 1234)
        #expect(sent?["folder"] as? String == "/contracts")

        let missing = try runShare(["add", folder.appending(path: "nope.pdf").path], transport: FakeTransport())
        #expect(missing.exitStatus == 66)
        let empty = folder.appending(path: "empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let nothing = try runShare(["add", empty.path], transport: FakeTransport())
        #expect(nothing.exitStatus == 66 && nothing.failure?.contains("holds no files") == true, "an empty folder shares nothing")
        let recordOnly = try runShare(["add", folder.path, "--record-only"], transport: FakeTransport())
        #expect(recordOnly.exitStatus != 0 && recordOnly.failure?.contains("--record-only") == true, "a folder's files are uploaded")
    }

    @Test func addRecordsNothingWhenOneFileCannotBeRead() throws {
        let folder = try temporaryFolder("add")
        try Data(count: 10).write(to: folder.appending(path: "a.txt"))
        // No request is scripted: recording a.txt before finding missing.txt would fail the test.
        let run = try runShare(["add", folder.appending(path: "a.txt").path, folder.appending(path: "missing.txt").path], transport: FakeTransport())
        #expect(run.exitStatus == 66)
        #expect(run.failure?.contains("missing.txt") == true)
        #expect(run.output.isEmpty)
    }

    @Test func removeAsksOnATerminalAndNeedsYesElsewhere() throws {
        let refused = try runShare(["rm", "7K2M9QDX"], transport: FakeTransport())
        #expect(refused.exitStatus == 64)
        #expect(refused.failure?.contains("--yes") == true)

        let declined = try runShare(["rm", "7K2M9QDX"], transport: FakeTransport(), input: ScriptedInput(isTerminal: true, lines: ["n"]))
        #expect(declined.output.hasSuffix("Nothing deleted.\n"))

        let transport = FakeTransport().on("DELETE", "\(server)/share/7K2M9QDX", status: 204).on(
            "DELETE", "\(server)/share/3D4F5G6H?purge=true", status: 204)
        let confirmed = try runShare(["rm", "7K2M9QDX"], transport: transport, input: ScriptedInput(isTerminal: true, lines: ["y"]))
        #expect(confirmed.output == "Move share 7K2M9QDX to the trash? [y/N] Moved 7K2M9QDX to the trash\n")
        let purged = try runShare(["rm", "3D4F5G6H", "--purge", "--yes"], transport: transport)
        #expect(purged.output == "Deleted 3D4F5G6H for good\n")
        #expect(transport.isDone)
    }

    @Test func statsByMonthAskTheServerSoAndNameTheColumn() throws {
        let body = #"{"bytes":7,"by":"month","count":2,"periods":[{"bytes":7,"count":2,"period":"2021-01"}],"types":{"pdf":{"bytes":7,"count":2}}}"#
        let transport = FakeTransport().on("GET", "\(server)/share/stats?tz=UTC&by=month", body: body)
        let run = try runShare(["stats", "--by", "month", "--tz", "UTC"], transport: transport)
        #expect(run.output.hasSuffix("MONTH    SHARES  SIZE\n2021-01       2   7 B\n"), "\(run.output)")
        #expect(try runShare(["stats", "--by", "week"], transport: FakeTransport()).exitStatus != 0, "only day, month, year or none")
    }

    @Test func statsAreTheUsersDaysWithTotals() throws {
        let body =
            #"{"bytes":2500999,"by":"day","count":3,"periods":[{"bytes":2500999,"count":3,"period":"2021-01-17"}],"types":{"doc":{"bytes":2500000,"count":1},"pdf":{"bytes":999,"count":2}}}"#
        let transport = FakeTransport().on("GET", "\(server)/share/stats?folder=%2Freports&recursive=true&type=pdf%2Cdoc&tz=Asia%2FTokyo", body: body)
        let run = try runShare(["stats", "/reports", "--type", "pdf,doc", "--tz", "Asia/Tokyo"], transport: transport)
        #expect(
            run.output == """
                3 shares, 2.5 MB

                TYPE  SHARES    SIZE
                doc        1  2.5 MB
                pdf        2   999 B

                DAY         SHARES    SIZE
                2021-01-17       3  2.5 MB

                """)
    }

    @Test func globalOptionsWorkBeforeOrAfterTheCommand() throws {
        func parsed(_ arguments: [String]) throws -> (command: any ShareSubcommand, options: GlobalOptions) {
            let command = try #require(try ShareCommand.parseAsRoot(arguments) as? any ShareSubcommand)
            return (command, command.options)
        }
        let before = try parsed(["--json", "--tz", "UTC", "ls", "/a"])
        #expect(before.options.json && before.options.tz == "UTC")
        #expect((before.command as? ListCommand)?.folder == "/a")
        let server = try parsed(["--server=http://x", "find", "q"])
        #expect(server.command is FindCommand && server.options.server == "http://x")
        #expect(try parsed(["ls", "--json"]).options.json)
        let alone = try parsed(["--json"])
        #expect(alone.command is ListCommand && alone.options.json, "share alone is share ls")
        #expect(try parsed(["--tz", "UTC", "ls", "--tz", "Asia/Tokyo"]).options.tz == "Asia/Tokyo", "after the name wins")
    }
}
