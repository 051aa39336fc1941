import Foundation
import ShareTestSupport
import Testing

/// The real `shared` with no tokens, on the loopback, as a browser reaches it: from its own pages, from another
/// site's, and through a host name an attacker pointed at 127.0.0.1 (DNS rebinding).
@Suite(.serialized) struct CrossSiteTests {
    /// The status line of a raw request with `headers`.
    private func status(_ daemon: Daemon, _ method: String, _ headers: [String], body: String = "") throws -> String {
        let connection = try RawConnection(port: daemon.port)
        let lines = ["\(method) /share HTTP/1.1"] + headers + ["Content-Length: \(body.utf8.count)", "Connection: close"]
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
        return String(connection.read().prefix { !$0.isNewline })
    }

    @Test func onlyTheDaemonsOwnHostNamesAreAnswered() throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_SERVER_ALLOWED_HOSTS": "files.lan"])
        for host in ["evil.example", "evil.example:\(daemon.port)", "rebound.attacker.net", "127.0.0.1.nip.io", "[fe80::1]"] {
            #expect(try status(daemon, "GET", ["Host: \(host)"]).hasSuffix("421 Misdirected Request"), "\(host)")
        }
        for host in ["localhost:\(daemon.port)", "127.0.0.1:\(daemon.port)", "[::1]:\(daemon.port)", "app.localhost", "FILES.LAN"] {
            #expect(try status(daemon, "GET", ["Host: \(host)"]).hasSuffix("200 OK"), "\(host)")
        }
        #expect(daemon.stop() == 0)
    }

    @Test func changesComeOnlyFromTheDaemonsOwnOrigin() throws {
        let daemon = try Daemon(folder: try temporaryFolder())
        let json = "Content-Type: application/json"
        let body = #"{"name": "a.txt", "size": 1}"#
        let host = "Host: 127.0.0.1:\(daemon.port)"
        for origin in ["http://127.0.0.1:\(daemon.port + 1)", "http://localhost:\(daemon.port)", "https://evil.example", "null"] {
            #expect(try status(daemon, "POST", [host, json, "Origin: \(origin)"], body: body).hasSuffix("403 Forbidden"), "\(origin)")
        }
        #expect(try status(daemon, "POST", [host, json, "Origin: http://127.0.0.1:\(daemon.port)"], body: body).hasSuffix("201 Created"))
        // Behind a proxy that passes the host name without the port, the names are compared.
        let proxied = ["Host: localhost", json, "Origin: https://localhost"]
        #expect(try status(daemon, "POST", proxied, body: body).hasSuffix("201 Created"))
        #expect(try status(daemon, "POST", [host, json], body: body).hasSuffix("201 Created"), "clients that are not browsers")
        #expect(daemon.stop() == 0)
    }
}
