import Foundation
import ShareTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients that hold connections open, trickle bytes or wait for `100 Continue`, against the real `shared`: the
/// daemon must keep answering everyone else while they are held. What is asserted is the order of events (an
/// answer comes while the crowd is still there), never a number of seconds; `scripts/test` runs this suite on its
/// own all the same, for the thousands of sockets it opens.
@Suite(.serialized) struct PressureTests {
    @Test func idleAndHalfSentConnectionsCannotCrowdOutOtherClients() async throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let daemon = try Daemon(
            folder: try temporaryFolder(),
            // Idle for 10 s at most: long enough for the answers below to come first on a busy machine.
            environment: ["SHARE_SERVER_MAX_CONNECTIONS": "300", "SHARE_SERVER_IDLE_TIMEOUT_SECONDS": "10"])
        _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "kept.txt", "size": 1}"#)
        let baseline = daemon.residentMiB
        // Thousands of connections that never send anything, and some that stop half-way through a request.
        var idle: [RawConnection] = []
        for index in 0..<3000 {
            guard let connection = try? RawConnection(port: daemon.port) else { continue }
            if index % 10 == 0 { connection.send("GET /share HTTP/1.1\r\nHost: localhost\r\nX-Slow: ") }
            idle.append(connection)
        }
        #expect(idle.count > 2000)
        for uri in ["/healthz", "/share"] {
            #expect(try await http("GET", "\(daemon.address)\(uri)").status == 200, "\(uri) is answered under pressure")
        }
        #expect(!idle.last!.isClosedByServer(within: 0), "the answers came while the idle connections were still held")
        // Each open connection costs about 11 KiB: 3000 of them held open would add over 30 MiB.
        #expect(daemon.residentMiB < max(baseline, 40) + 20, "RSS \(baseline) -> \(daemon.residentMiB) MiB")
        #expect(daemon.logText.contains("connection limit reached (max_connections = 300)"))
        // The newest idle connections still open are closed once the idle time is up.
        #expect(idle.suffix(50).allSatisfy { $0.isClosedByServer(within: 13) })
        #expect(daemon.stop() == 0)
    }

    @Test func expect100ContinueIsAnsweredAtOnceAndAnOversizedBodyRefusedBeforeItIsSent() throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        try expectContinue(daemon)
        #expect(daemon.stop() == 0)
    }

    private func expectContinue(_ daemon: Daemon) throws {
        let body = #"{"name": "a.txt", "size": 1}"#
        let connection = try RawConnection(port: daemon.port)
        connection.send(
            "POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
        )
        // The body is sent only once the 100 has come: no client waits for a 100 that never comes.
        #expect(connection.read(until: "\r\n\r\n", seconds: 5).hasPrefix("HTTP/1.1 100 Continue"))
        connection.send(body)
        #expect(connection.read(until: "\"size\":1", seconds: 2).hasPrefix("HTTP/1.1 201"))

        let big = try RawConnection(port: daemon.port)
        big.send(
            "POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n")
        let refused = big.read(until: "}", seconds: 2)
        #expect(refused.hasPrefix("HTTP/1.1 413"), "\(refused)")
        #expect(!refused.contains("100 Continue"))
        #expect(refused.contains("5000000 bytes"))

        let importing = try RawConnection(port: daemon.port)
        importing.send(
            "POST /share/import HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n"
        )
        #expect(importing.read(until: "\r\n\r\n", seconds: 2).hasPrefix("HTTP/1.1 100 Continue"), "an import stream has no size limit")
        importing.finishSending()
        #expect(importing.read().contains("HTTP/1.1 400"), "a stream cut short imports nothing")
    }

    @Test func connectionsTricklingBytesKeepNoOneWaiting() async throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_SERVER_REQUEST_TIMEOUT_SECONDS": "2"])
        var tricklers: [RawConnection] = []
        for index in 0..<200 {
            let connection = try RawConnection(port: daemon.port)
            // Half send a head a byte at a time, half a body.
            connection.send(
                index % 2 == 0 ? "P" : "POST /share HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            tricklers.append(connection)
        }
        for second in 0..<3 {
            for connection in tricklers { connection.send(second % 2 == 0 ? "O" : " ") }
            #expect(try await http("GET", "\(daemon.address)/healthz").status == 200)
            #expect(try await http("GET", "\(daemon.address)/share").status == 200)
            try await Task.sleep(for: .seconds(1))
        }
        // Bodies still arriving after request_timeout_seconds are refused, and their connections closed.
        let refused = tricklers[1].read(seconds: 3)
        #expect(refused.hasPrefix("HTTP/1.1 408"), "\(refused.prefix(80))")
        #expect(tricklers[1].isClosedByServer(within: 2))
        #expect(daemon.stop() == 0)
    }
}
