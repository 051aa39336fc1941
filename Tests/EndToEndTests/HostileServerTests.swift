import Foundation
import ShareTestSupport
import Testing

/// The real `share` against servers that mean harm: it fails with one clear line, sends its token nowhere
/// else, reads no file, and neither loops nor swells.
@Suite struct HostileServerTests {
    /// A listing page whose `Link` points at `next`.
    private static func page(linkingTo next: String, body: String = "[]") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Link: <\(next)>; rel=\"next\"\r\n\r\n\(body)"
    }

    @Test func theTokenNeverFollowsANextLinkToAnotherPort() throws {
        let elsewhere = try HostileServer { _ in "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]" }
        let server = try HostileServer { _ in Self.page(linkingTo: "http://127.0.0.1:\(elsewhere.port)/share?cursor=x") }
        let run = try share(["ls", "--all"], server: "http://127.0.0.1:\(server.port)", environment: ["SHARE_TOKEN": "secret"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("next-page link 'http://127.0.0.1:\(elsewhere.port)/share?cursor=x'"))
        #expect(elsewhere.connections == 0)
    }

    @Test func aNextLinkToAFileIsNeverRead() throws {
        let server = try HostileServer { _ in Self.page(linkingTo: "file:///etc/passwd") }
        let run = try share(["--json", "ls", "--all"], server: "http://127.0.0.1:\(server.port)")
        #expect(run.status == 1)
        #expect(!run.stdout.contains("root:") && !run.stderr.contains("root:"))
        #expect(run.stderr.contains("'file:///etc/passwd'"))
    }

    @Test func aServerLinkingToTheSamePageForeverIsStopped() throws {
        let server = try HostileServer { _ in Self.page(linkingTo: "/share?limit=1000&cursor=again", body: "[]") }
        let started = Date()
        let run = try share(["--json", "ls", "--all"], server: "http://127.0.0.1:\(server.port)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("a second time"))
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aHugeResponseHeaderIsNamedAsTheServersDoing() throws {
        let server = try HostileServer { _ in "HTTP/1.1 200 OK\r\nX-Big: \(String(repeating: "a", count: 1_000_000))\r\nContent-Length: 2\r\n\r\n[]" }
        let run = try share(["ls"], server: "http://127.0.0.1:\(server.port)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("headers are larger than share accepts") && !run.stderr.contains("Out of memory"), "\(run.stderr)")
    }

    @Test func aHugeAnswerIsNotReadIntoMemory() throws {
        let huge = String(repeating: " ", count: 50_000_000)
        let server = try HostileServer { _ in "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[\(huge)]" }
        let run = try share(["ls"], server: "http://127.0.0.1:\(server.port)")
        #expect(run.status == 1)
        #expect(run.stderr.contains("more than 16777216 bytes"), "\(run.stderr)")
        let limited = try share(["ls"], server: "http://127.0.0.1:\(server.port)", environment: ["SHARE_MAX_RESPONSE_BYTES": "1000"])
        #expect(limited.stderr.contains("more than 1000 bytes"))
    }

    /// A large import keeps the server busy long after its last byte arrived (merging into the history): `share`
    /// waits for the answer, saying so, rather than giving up after its timeout and leaving the user unsure.
    @Test func anImportTheServerTakesLongToStoreIsWaitedForAndItsAnswerShown() throws {
        let server = try HostileServer(readingBodies: true) { _ in
            Thread.sleep(forTimeInterval: 3)  // the server's work (three times the 1 s speed window), not a wait
            let report = #"{"imported":2,"rejected":0,"problems":[]}"#
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(report.utf8.count)\r\n\r\n\(report)"
        }
        let file = try temporaryFolder().appending(path: "two.ndjson")
        try Data(#"{"name":"a.pdf","size":1}\#n{"name":"b.pdf","size":2}\#n"#.utf8).write(to: file)
        let run = try share(["import", file.path], server: "http://127.0.0.1:\(server.port)", environment: ["SHARE_TIMEOUT_SECONDS": "1"])
        #expect(run.status == 0 && run.stdout.contains("Imported 2 shares"), "\(run.stdout) \(run.stderr)")
    }

    /// A server that stops reading half-way through an upload (80 MB: more than the sockets' buffers hold) is a
    /// stall, reported after the timeout.
    @Test func anUploadTheServerStopsReadingIsReportedAsStalled() throws {
        let server = try HostileServer { _ in nil }
        let file = try temporaryFolder().appending(path: "big.ndjson")
        try Data(String(repeating: #"{"name":"a.pdf","size":1}"# + "\n", count: 3_000_000).utf8).write(to: file)
        let run = try share(["import", file.path], server: "http://127.0.0.1:\(server.port)", environment: ["SHARE_TIMEOUT_SECONDS": "1"])
        #expect(run.status == 7 && run.stderr.contains("stalled"), "\(run.stderr)")
    }

    @Test func aServerThatTakesTheConnectionAndStallsIsReportedAsSuch() throws {
        let server = try HostileServer { _ in nil }
        let started = Date()
        let run = try share(["ls"], server: "http://127.0.0.1:\(server.port)", environment: ["SHARE_TIMEOUT_SECONDS": "1"])
        #expect(run.status == 7)
        #expect(run.stderr.contains("did not answer in time"))
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
