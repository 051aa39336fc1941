import Foundation
import ShareClient
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareCLI

@Suite struct TransferTests {
    private func file(_ text: String) throws -> String {
        let url = try temporaryFolder("import").appending(path: "records.ndjson")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func importStreamsTheFileAndListsProblemsByLine() throws {
        let records = "{\"name\": \"a.pdf\", \"size\": 1}\n{\"name\": \"a/b\", \"size\": 1}\n"
        let report = #"{"imported":1,"problems":[{"detail":"field 'name' must not contain '/'","line":2}],"rejected":1}"#
        let transport = FakeTransport().on("POST", "\(server)/share/import", body: report)
        let run = try runShare(["import", try file(records)], transport: transport)
        #expect(transport.sent.first?.body.map { String(decoding: $0, as: UTF8.self) } == records)
        #expect(run.output == "Imported 1 share\n  line 2: field 'name' must not contain '/'\n")
        #expect(run.exitStatus == 6)
        #expect(run.failure == "1 record was not imported")
    }

    @Test func aCleanImportSucceeds() throws {
        let transport = FakeTransport().on("POST", "\(server)/share/import", body: #"{"imported":2,"problems":[],"rejected":0}"#)
        let run = try runShare(
            ["import", try file("[{\"name\": \"a.pdf\", \"size\": 1}, {\"name\": \"b.pdf\", \"size\": 2}]")], transport: transport)
        #expect(run.exitStatus == 0)
        #expect(run.output == "Imported 2 shares\n")
    }

    @Test func aMissingFileIsALocalFailure() throws {
        let run = try runShare(["import", "/nonexistent/history.ndjson"], transport: FakeTransport())
        #expect(run.exitStatus == 66)
    }

    @Test func exportWritesTheStreamAsItComes() throws {
        let lines = "\(recordJSON())\n\(recordJSON(id: "3D4F5G6H", name: "年度报告.pdf"))\n"
        let run = try runShare(["export"], transport: FakeTransport().on("GET", "\(server)/share/export", body: lines))
        #expect(run.output == lines)
    }

    /// A person watching a transfer sees how far it is, how fast it goes, how long is left and, resumed, where it
    /// began; at the end, how long it took.
    @Test func progressShowsABarTheRateAndTimeLeftAndEndsWithTheTimeTaken() {
        let output = CapturedOutput()
        var now = Duration.zero
        let progress = ProgressLine(output: output, label: "Uploading a.mov", total: 2_000_000, elapsed: { now })
        progress.resumed(from: 500_000)
        progress.show(500_000)
        now = .seconds(1)
        progress.show(1_000_000)
        progress.show(1_000_000)
        now = .seconds(2)
        progress.show(2_000_000)
        progress.finish("Uploaded a.mov")
        let lines = [
            "Uploading a.mov  [#####               ]  25% (resumed from 25%)  500.0 kB of 2.0 MB",
            "Uploading a.mov  [##########          ]  50% (resumed from 25%)  1.0 MB of 2.0 MB  500.0 kB/s  2 s left",
            "Uploading a.mov  [####################]  100% (resumed from 25%)  2.0 MB of 2.0 MB  750.0 kB/s",
            "",
        ]
        #expect(output.text == lines.map { "\r\u{1B}[K" + $0 }.joined() + "Uploaded a.mov: 1.5 MB in 2 s\n")
    }
}
