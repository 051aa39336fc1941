import Foundation
import ShareTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `shared` under clients that send what no well-behaved HTTP client would.
@Suite(.serialized) struct HostileClientTests {
    /// The status line and body of the one response a raw request gets.
    private func exchange(_ daemon: Daemon, _ request: String, finish: Bool = true) throws -> (status: String, body: String) {
        let connection = try RawConnection(port: daemon.port)
        connection.send(request)
        if finish { connection.finishSending() }
        let response = connection.read()
        let status = String(response.prefix { $0 != "\r" })
        let body = response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    @Test func brokenFramingIsA400Or501ProblemAndLeavesALogLine() throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        let post = "POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        let cases: [(String, String, String)] = [
            (post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", "400", "chunk size"),
            (post + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFF\r\n", "400", "chunk size"),
            (post + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n", "400", "framing"),
            (post + "Transfer-Encoding: identity\r\n\r\n{}", "501", "'identity' is not supported"),
            (post + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "501", "'gzip' is not supported"),
            (post + "Transfer-Encoding: gzip\r\n\r\n{}", "", ""),
            (post + "Content-Length: 40\r\n\r\n{\"name\": \"a.txt\"", "400", "ended before the request was complete"),
            ("GET /share?q=\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n", "400", "larger than the server accepts"),
        ]
        for (request, status, detail) in cases {
            let sent = Date()
            let answer = try exchange(daemon, request)
            let took = "after \(Int(Date().timeIntervalSince(sent) * 1000)) ms"
            #expect(!answer.status.contains("500"), "\(request.prefix(80))")
            if status.isEmpty {
                // A coding other than chunked last: not HTTP/1.1 framing at all.
                #expect(answer.status.contains("400") || answer.status.contains("501"), "\(answer)")
                continue
            }
            #expect(answer.status.hasPrefix("HTTP/1.1 \(status)"), "\(request.prefix(80)): \(answer.status) \(took)")
            #expect(answer.body.contains("\"status\":\(status)") && answer.body.contains(detail), "\(answer.body) \(took)")
        }
        // A line may be written just after its answer is sent.
        var lines: [Substring] = []
        try? waitUntilBlocking("every answer's log line", within: .seconds(10)) {
            lines = daemon.logText.split(separator: "\n").filter { $0.contains(" request") && $0.contains("status=") }
            return lines.count >= cases.count
        }
        #expect(lines.count >= cases.count, "every answer leaves its line:\n\(lines.joined(separator: "\n"))")
        #expect(daemon.stop() == 0)
    }

    @Test func aSecondDaemonNeverTakesOverALiveSocket() throws {
        let folder = try temporaryFolder()
        let socket = folder.appending(path: "shared.sock").path
        let first = try Daemon(folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "a.db").path])
        let second = try Daemon.run(["--listen", "unix:\(socket)", "--db", folder.appending(path: "b.db").path], in: folder)
        #expect(second.status != 0)
        #expect(second.output.contains("is serving on \(socket)"), "\(second.output)")
        #expect(try curl(socket: socket, "GET", "/healthz").status == 200, "the first daemon still serves")
        #expect(first.stop() == 0)
        // Once the first is gone, its socket file is stale and may be replaced.
        let third = try Daemon(folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "a.db").path])
        #expect(try curl(socket: socket, "GET", "/healthz").status == 200)
        #expect(third.stop() == 0)
    }
}
