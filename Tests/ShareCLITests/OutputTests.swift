import Foundation
import ShareKit
import Testing

@testable import ShareCLI

@Suite struct OutputTests {
    @Test func listingsAreAlignedTablesInTheUsersZone() throws {
        let transport = FakeTransport().on(
            "GET", "\(server)/share",
            body: "[\(recordJSON()),\(recordJSON(id: "3D4F5G6H", name: "holiday.jpg", size: 999, createdAt: "2021-01-16T23:05:00Z", type: "image"))]")
        let run = try runShare(["ls", "--tz", "Asia/Shanghai"], transport: transport)
        #expect(
            run.output == """
                TYPE   NAME           SIZE  SHARED            LINK  ID
                pdf    report.pdf   1.2 MB  2021-01-17 20:40  -     7K2M9QDX
                image  holiday.jpg   999 B  2021-01-17 07:05  -     3D4F5G6H
                2 shares

                """)
    }

    /// A row says whether its link opens and, under a limit, how many of its downloads went.
    @Test(arguments: [
        (#""link": "/s/t", "state": "active""#, "open"), (#""link": "/s/t", "state": "active", "maxDownloads": 5, "downloads": 2"#, "open 2/5"),
        (#""link": "/s/t", "state": "expired", "maxDownloads": 3, "downloads": 3"#, "spent 3/3"),
        (#""link": "/s/t", "state": "expired", "expiresAt": "2021-01-18T00:00:00.000Z""#, "expired"), (#""state": "revoked""#, "stopped"),
    ])
    func eachRowSaysItsLinksState(fields: String, words: String) throws {
        let record = recordJSON().replacingOccurrences(of: "}", with: ", \(fields)}")
        let run = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", body: "[\(record)]"))
        let row = try #require(run.output.split(separator: "\n").dropFirst().first)
        #expect(row.hasSuffix("  \(words)  7K2M9QDX"), "\(row)")
    }

    @Test func wideCharactersKeepTheColumnsAligned() throws {
        let transport = FakeTransport().on(
            "GET", "\(server)/share",
            body:
                "[\(recordJSON(name: "年度报告.pdf")),\(recordJSON(id: "3D4F5G6H", name: "a.pdf")),\(recordJSON(id: "9Z9Z9Z9Z", name: "Cafe\u{301}.pdf"))]"
        )
        let lines = try runShare(["ls"], transport: transport).output.split(separator: "\n").dropLast().map(String.init)
        let idColumns = lines.map { line in TerminalText.width(String(line[..<line.range(of: "  ", options: .backwards)!.upperBound])) }
        #expect(Set(idColumns).count == 1, "every ID starts in the same terminal column: \(lines)")
        #expect(TerminalText.width("年度报告.pdf") == 12)
        #expect(TerminalText.width("Cafe\u{301}") == 4)
    }

    @Test func hostileNamesAreShownEscapedAndKeepTheirRow() throws {
        let hostile = "evil\u{1B}[2J\u{1B}[H\nfake.pdf  1 B\u{7}\u{9B}\u{202E}fdp.exe"
        let transport = FakeTransport().on("GET", "\(server)/share", body: "[\(recordJSON(name: hostile, type: "other"))]")
        let run = try runShare(["ls"], transport: transport)
        #expect(!run.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(run.output.contains(#"evil\x1B[2J\x1B[H\nfake.pdf  1 B\x07\u{009B}\u{202E}fdp.exe"#))
        #expect(run.output.split(separator: "\n").count == 3, "header, one row, count")
    }

    @Test(arguments: [
        (Int64(0), "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1234, "1.2 kB"), (999_949, "999.9 kB"), (999_950, "1.0 MB"),
        (2_500_000, "2.5 MB"), (3_100_000_000, "3.1 GB"), (Int64.max, "9.2 EB"),
        // Exact halves round to even, as printf's %.1f does.
        (1250, "1.2 kB"), (1350, "1.4 kB"), (1251, "1.3 kB"),
    ])
    func sizesUseThousandsWithOneDecimal(bytes: Int64, text: String) {
        #expect(ByteSize.text(bytes) == text)
        #expect(ByteSize.text(Decimal(bytes)) == text)
    }

    /// Totals of `share stats` can pass 64 bits.
    @Test func totalsBeyondSixtyFourBitsKeepTheirUnit() {
        #expect(ByteSize.text(Decimal(string: "18446744073709551616")!) == "18.4 EB")
        #expect(ByteSize.text(Decimal(string: "20000000000000000000000")!) == "20.0 ZB")
        #expect(ByteSize.text(Decimal(string: "85070591730234615847396907784232501249")!) == "85070591730234.6 YB")
    }

    @Test func datesAreShownInTheChosenZone() {
        let time = Timestamp(rfc3339: "2021-03-14T06:30:00Z")!
        #expect(Formats.localTime(time, in: TimeZone(identifier: "America/New_York")!) == "2021-03-14 01:30")
        #expect(Formats.localTime(time, in: TimeZone(identifier: "Asia/Kolkata")!, seconds: true) == "2021-03-14 12:00:00")
    }

    @Test func anEmptyResultSaysSo() throws {
        let run = try runShare(["find", "nothing"], transport: FakeTransport().on("GET", "\(server)/share?q=nothing", body: "[]"))
        #expect(run.output == "No shares.\n")
    }

    @Test func colourOnlyWhenAllowed() throws {
        let body = "[\(recordJSON())]"
        let always = try runShare(["ls", "--color", "always"], transport: FakeTransport().on("GET", "\(server)/share", body: body))
        #expect(always.output.contains("\u{1B}[31m"))
        let terminal = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", body: body), outputIsTerminal: true)
        #expect(terminal.output.contains("\u{1B}["))
        let piped = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", body: body))
        #expect(!piped.output.contains("\u{1B}"))
        let noColor = try runShare(
            ["ls", "--color", "always"], transport: FakeTransport().on("GET", "\(server)/share", body: body), environment: ["NO_COLOR": "1"])
        #expect(!noColor.output.contains("\u{1B}"))
    }

    @Test func aLogIsATableOfChangesInTheUsersZone() throws {
        let events = #"""
            [{"action":"created","at":"2021-01-17T12:40:00.000Z","by":"laptop"},
             {"action":"renamed","at":"2021-01-18T08:00:00.000Z","by":"token-1","from":"a.pdf","to":"b\u001b[2J.pdf"}]
            """#
        let transport = FakeTransport().on("GET", "\(server)/share/7K2M9QDX/events?limit=1000", body: events)
        let run = try runShare(["log", "7K2M9QDX", "--tz", "Asia/Shanghai"], transport: transport)
        #expect(
            run.output == """
                WHEN                 ACTION   CHANGE                BY
                2021-01-17 20:40:00  created                        laptop
                2021-01-18 16:00:00  renamed  a.pdf → b\\x1B[2J.pdf  token-1

                """)
    }
}
