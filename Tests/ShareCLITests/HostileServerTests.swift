import Foundation
import ShareKit
import Testing

@testable import ShareCLI
@testable import ShareClient

/// What a server that means harm can make `share` do: nothing beyond failing with a clear line.
@Suite struct HostileServerTests {
    private let firstPage = "\(server)/share?limit=1000"

    @Test(arguments: [
        "http://elsewhere.test:8080/share?cursor=x", "http://shares.test:9999/share?cursor=x", "https://shares.test:8080/share?cursor=x",
        "file:///etc/passwd", "gopher://shares.test:8080/_GET", "//elsewhere.test/share?cursor=x", "/other/share?cursor=x",
        "/share/../share?cursor=x", "/share?cursor=a b", "/share#fragment",
    ])
    func aNextLinkIsFollowedOnlyOnTheServersOwnListing(link: String) throws {
        // Only the first page is scripted: following the link would be an unexpected request and fail the test.
        let transport = FakeTransport().on("GET", firstPage, headers: ["link": "<\(link)>; rel=\"next\""], body: "[\(recordJSON())]")
        let run = try runShare(["ls", "--all"], transport: transport, environment: ["SHARE_TOKEN": "secret"])
        #expect(run.exitStatus == 1)
        #expect(run.failure?.contains("next-page link '\(link)'") == true, "\(run.failure ?? "")")
        #expect(transport.sent.count == 1)
    }

    @Test func aNextLinkOnTheSameListingIsFollowedWrittenEitherWay() throws {
        let transport = FakeTransport()
            .on("GET", firstPage, headers: ["link": "</share?limit=1000&cursor=A>; rel=\"next\""], body: "[\(recordJSON())]")
            .on("GET", "\(server)/share?limit=1000&cursor=A", headers: ["link": "<HTTP://SHARES.TEST:8080/share?cursor=B>; rel=\"next\""], body: "[]")
            .on("GET", "\(server)/share?cursor=B", body: "[]")
        #expect(try runShare(["ls", "--all"], transport: transport).exitStatus == 0)
        #expect(transport.isDone)
    }

    @Test func aNextLinkUnderASubPathMustKeepIt() {
        let address = ServerAddress("https://example.test/files")!
        #expect(address.page(link: "/files/share?cursor=x") == "https://example.test/files/share?cursor=x")
        #expect(address.page(link: "/share?cursor=x") == nil)
        #expect(address.page(link: "/files/../share?cursor=x") == nil)
        let socket = ServerAddress("unix:/run/share/shared.sock")!
        #expect(socket.page(link: "/share?cursor=x") == "http://localhost/share?cursor=x")
        #expect(socket.page(link: "http://127.0.0.1:22/share") == nil)
    }

    @Test func aServerRepeatingItsNextPageIsStopped() throws {
        let page = "\(server)/share?limit=1000&cursor=AAAA"
        let transport = FakeTransport()
            .on("GET", firstPage, headers: ["link": "</share?limit=1000&cursor=AAAA>; rel=\"next\""], body: "[\(recordJSON())]")
            .on("GET", page, headers: ["link": "</share?limit=1000&cursor=AAAA>; rel=\"next\""], body: "[\(recordJSON())]")
        let run = try runShare(["--json", "ls", "--all"], transport: transport)
        #expect(run.exitStatus == 1)
        #expect(run.failure?.contains("a second time") == true)
        #expect(transport.isDone)
    }

    /// A server that never stops announcing fresh pages: rows are printed as pages arrive (memory holds one),
    /// and `max_pages` stops the walk with an error, in a table or in JSON.
    @Test(arguments: [["ls", "--all"], ["--json", "ls", "--all"]])
    func aServerWithEndlessPagesIsStoppedAtMaxPagesAfterStreamingThem(arguments: [String]) throws {
        let transport = FakeTransport()
        var url = firstPage
        for page in 1...5 {
            let next = "\(server)/share?cursor=P\(page)"
            transport.on("GET", url, headers: ["link": "<\(next)>; rel=\"next\""], body: "[\(recordJSON(id: "PAGE\(page)"))]")
            url = next
        }
        let run = try runShare(arguments, transport: transport, environment: ["SHARE_MAX_PAGES": "5"])
        #expect(run.exitStatus == 1)
        #expect(run.failure?.contains("stopped after 5 pages (max_pages)") == true, "\(run.failure ?? "")")
        #expect((1...5).allSatisfy { run.output.contains("PAGE\($0)") }, "each page printed as it came: \(run.output)")
        #expect(transport.isDone)
    }

    @Test func libcurlSpeaksOnlyHTTPWhateverTheURL() throws {
        let transport = try CurlTransport(timeoutSeconds: 2)
        for url in ["file:///etc/passwd", "gopher://127.0.0.1:1/_x", "dict://127.0.0.1:1/x"] {
            #expect(throws: TransportError.self, "\(url)") { try transport.send(HTTPRequest(method: "GET", url: url)) }
            do {
                _ = try transport.send(HTTPRequest(method: "GET", url: url))
            } catch {
                guard case .failed(let reason) = error else {
                    Issue.record("\(url): \(error)")
                    continue
                }
                #expect(reason.lowercased().contains("protocol"), "\(url): \(reason)")
                #expect(!reason.contains("root:"), "no file contents in the message")
            }
        }
    }

    @Test func everyStringOfStatsIsEscapedOnTheWayToTheTerminal() throws {
        let stats = #"""
            {"count":1,"bytes":5,"types":{"pdf\u001b[31m":{"count":1,"bytes":5}},
             "by":"day","periods":[{"period":"2021\u001b]0;X\u0007","count":1,"bytes":5}]}
            """#
        let transport = FakeTransport().on("GET", "\(server)/share/stats?tz=UTC", body: stats)
        let run = try runShare(["stats", "--tz", "UTC"], transport: transport)
        #expect(run.exitStatus == 0)
        #expect(!run.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(run.output.contains(#"2021\x1B]0;X\x07"#))
        #expect(run.output.contains(#"pdf\x1B[31m"#))
    }

    @Test func invisibleFormatCharactersAreShownEscaped() {
        // Arabic letter mark, zero-width space and joiner, BOM, word joiner, a tag character, soft hyphen.
        for scalar: Unicode.Scalar in ["\u{061C}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{2060}", "\u{E0041}", "\u{AD}", "\u{2029}"] {
            let shown = TerminalText.escape("a\(scalar)b")
            #expect(shown == "a\\u{\(String(format: "%04X", scalar.value))}b")
        }
        #expect(TerminalText.escape("naïve 年度报告 😀.pdf") == "naïve 年度报告 😀.pdf")
    }

    @Test func exportAndJSONAreExactIntoAPipeAndEscapedOnATerminal() throws {
        let line = "{\"name\":\"a\u{1B}[2Jb\u{202E}.pdf\"}\n"
        for terminal in [false, true] {
            let transport = FakeTransport().on("GET", "\(server)/share/export", body: line + line)
            let run = try runShare(["export"], transport: transport, outputIsTerminal: terminal)
            #expect(run.exitStatus == 0)
            if terminal {
                #expect(run.output == (#"{"name":"a\x1B[2Jb\u{202E}.pdf"}"# + "\n").repeated(2))
            } else {
                #expect(run.output == line + line)
            }
        }
    }

    @Test func aCharacterSplitBetweenTwoWritesIsEscapedWhole() {
        let captured = CapturedOutput()
        let output = TerminalEscapingOutput(terminal: captured)
        let bytes = Array("x\u{202E}年\n".utf8)
        for byte in bytes { output.write(bytes: [byte]) }
        #expect(captured.text == "x\\u{202E}年\n")
    }

    @Test(arguments: ["export", "stats", "import", "a b", "../share", "x?y=1", String(repeating: "x", count: 65)])
    func anIdNoRecordCouldHaveIsNotFoundWithoutAsking(id: String) throws {
        let run = try runShare(["show", id], transport: FakeTransport())
        #expect(run.exitStatus == 5)
        #expect(run.failure == "no share with id '\(id)'")
    }

    @Test func aResponseLargerThanTheLimitIsNotRead() throws {
        let transport = FakeTransport().on("GET", "\(server)/share", fail: .tooLarge(limit: 1000))
        let run = try runShare(["ls"], transport: transport)
        #expect(run.exitStatus == 1)
        #expect(run.failure?.contains("more than 1000 bytes") == true)
    }

    @Test func timeZonesFollowTheServersRule() throws {
        for zone in ["UTC+5", "GMT-0330", "utc", "Mars/Base"] {
            #expect(try runShare(["ls", "--tz", zone], transport: FakeTransport()).exitStatus == 64, "\(zone)")
        }
        let transport = FakeTransport().on("GET", "\(server)/share?date=2021-01-17&tz=Etc%2FGMT-5", body: "[]")
        #expect(try runShare(["ls", "--date", "2021-01-17", "--tz", "Etc/GMT-5"], transport: transport).exitStatus == 0)
    }

    @Test func theLastInstantShownEastOfUTCIsInYear10000NotWrapped() {
        let last = Timestamp(rfc3339: "9999-12-31T23:59:59.999Z")!
        #expect(Formats.localTime(last, in: TimeZone(identifier: "Asia/Tokyo")!) == "10000-01-01 08:59")
        let first = Timestamp(rfc3339: "0000-01-01T00:00:00Z")!
        #expect(Formats.localTime(first, in: TimeZone(identifier: "America/New_York")!, seconds: true).hasPrefix("-0001-12-31 19:"))
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
