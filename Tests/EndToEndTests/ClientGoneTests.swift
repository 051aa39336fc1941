import Foundation
import ShareChildProcess
import ShareTestSupport
import Testing

/// A read whose client has gone stops: the reader is free for the next request instead of working out an answer
/// nobody will read.
@Suite struct ClientGoneTests {
    /// The value of a metric without labels, or 0 while it has none.
    private func metric(_ name: String, _ daemon: Daemon) async throws -> Double {
        let text = try await http("GET", "\(daemon.address)/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix("\(name) ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func aReadWhoseClientHangsUpIsStoppedAndCounted() async throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "big.db").path
        // A history large enough that its statistics take a while: the schema by shared, the rows by SQL.
        let created = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0", "--db", database])
        #expect(created.stop() == 0)
        let filled = try ChildProcess.finished(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3, sys
                with sqlite3.connect(sys.argv[1]) as db:
                    db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) "
                               "INSERT INTO share (id, name, name_key, folder, created_at, size, type) "
                               "SELECT printf('BULK%06d', i), 'f.pdf', 'f.pdf', '/', 1600000000000 + i * 60000, i, 'pdf' FROM n")
                """,
                database,
            ])
        #expect(filled.status == 0, "\(filled.output)")
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0", "--db", database])
        let port = Int(daemon.address.split(separator: ":").last ?? "") ?? 0
        // Text is not in the running totals: every one of the 300,000 names is read.
        let heavy = "/share/stats?q=f&tz=America/New_York&by=day"

        // A client that waits gets its answer, and nothing is counted.
        #expect(try await http("GET", daemon.address + heavy).status == 200)
        #expect(try await metric("share_reads_abandoned_total", daemon) == 0)

        // One that asks and hangs up at once: the read is stopped, counted, and said so in the log.
        do {
            let connection = try RawConnection(port: port)
            connection.send("GET \(heavy) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        }  // closed here, as soon as the request is sent
        try await waitUntil("the abandoned read counted", within: .seconds(30)) {
            try await metric("share_reads_abandoned_total", daemon) >= 1
        }
        #expect(try await metric("share_reads_abandoned_total", daemon) == 1)
        #expect(daemon.logText.contains("the client has gone: the read stops"))
        #expect(try await http("GET", daemon.address + heavy).status == 200, "the next read is answered")
        #expect(daemon.stop() == 0)
    }
}
