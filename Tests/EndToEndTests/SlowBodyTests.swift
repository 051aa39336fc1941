import Foundation
import ShareTestSupport
import Testing

/// Clients that declare a body and then send it a byte at a time, with a token or without: none of them may keep
/// a connection's place, and the daemon keeps answering everyone else.
@Suite(.serialized) struct SlowBodyTests {
    @Test func tricklersWithoutATokenCannotFillTheConnectionSlots() async throws {
        let daemon = try Daemon(
            folder: try temporaryFolder(), environment: ["SHARE_AUTH_TOKENS": "t0ken", "SHARE_SERVER_MAX_CONNECTIONS": "20"])
        // As many as the limit, each answered 401 at once (read before the next connects, so none is yet an idle
        // connection that a new one may replace): then every place is held by a client still sending its body.
        var tricklers: [RawConnection] = []
        for _ in 0..<20 {
            let connection = try RawConnection(port: daemon.port)
            connection.send("POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            let answer = connection.read(until: "\r\n\r\n", seconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(60))")
            #expect(answer.lowercased().contains("connection: close"), "an early answer ends the connection")
            connection.send(" ")
            tricklers.append(connection)
        }
        #expect(try await http("GET", "\(daemon.address)/healthz").status == 200, "a new client finds a place")
        #expect(
            try await http("GET", "\(daemon.address)/share", headers: ["Authorization": "Bearer t0ken"]).status == 200)
        // However slowly they go on sending, the rest of their bodies is not waited for.
        #expect(tricklers.allSatisfy { $0.isClosedByServer(within: 10) })
        #expect(daemon.stop() == 0)
    }

    @Test func theRestOfABodyAnsweredEarlyIsReadAndDroppedSoTheClientSeesTheAnswer() throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_AUTH_TOKENS": "t0ken"])
        let connection = try RawConnection(port: daemon.port)
        let body = String(repeating: "x", count: 200_000)
        connection.send(
            "POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        let answer = connection.read(until: "}", seconds: 5)
        #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(60))")
        // The client goes on sending what it had begun: no reset, and the connection ends when the body does.
        connection.send(body)
        #expect(connection.isClosedByServer(within: 5))
        #expect(daemon.stop() == 0)
    }

    @Test func aTokenHoldersImportMustKeepAMinimumRate() throws {
        let daemon = try Daemon(
            folder: try temporaryFolder(), environment: ["SHARE_AUTH_TOKENS": "t0ken", "SHARE_SERVER_MIN_UPLOAD_RATE": "100"])
        let connection = try RawConnection(port: daemon.port)
        connection.send(
            "POST /share/import HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t0ken\r\nContent-Type: application/x-ndjson\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
        // A few bytes a second, far below 100: refused after its first full window of ten seconds.
        var answer = ""
        for _ in 0..<30 where answer.isEmpty {
            connection.send("1\r\n \r\n")
            answer = connection.read(until: "}", seconds: 1)
        }
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(80))")
        #expect(answer.contains("below the 100"), "\(answer)")
        #expect(connection.isClosedByServer(within: 2))
        #expect(daemon.stop() == 0)
    }

    @Test func anHTTP10RequestWithoutKeepAliveIsClosedAfterItsAnswer() throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        let connection = try RawConnection(port: daemon.port)
        connection.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(connection.read(until: "}", seconds: 5).contains("200 OK"))
        #expect(connection.isClosedByServer(within: 5))
        #expect(daemon.stop() == 0)
    }
}
