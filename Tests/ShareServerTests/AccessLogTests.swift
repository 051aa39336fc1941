import HTTPTypes
import NIOCore
import ShareKit
import Testing

@testable import ShareServer

/// The client address a log line names: the proxy's forwarded address, when it is one.
@Suite struct AccessLogTests {
    private let log = AccessLog(trustedProxies: [IPAddressRange("127.0.0.1/32")!])
    private let proxy = try! SocketAddress(ipAddress: "127.0.0.1", port: 4000)

    @Test(arguments: [
        ("203.0.113.7", "203.0.113.7"), ("198.51.100.1, 203.0.113.7", "203.0.113.7"), ("2001:db8::1", "2001:db8::1"),
        ("evil\", \"admin", "127.0.0.1"), ("203.0.113.7, not-an-address", "203.0.113.7"), ("10.0.0.0/8", "127.0.0.1"),
        ("\u{1B}[2J", "127.0.0.1"),
    ])
    func onlyAnAddressFromTheForwardedHeaderIsLogged(forwarded: String, logged: String) {
        let headers: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: forwarded]
        #expect(log.clientAddress(headers, peer: proxy) == logged)
    }

    @Test(arguments: [
        ("/s/8Ocb_kXc7cuxpNG3Lk8FcQ", "/s/8Ocb…"), ("/files/s/8Ocb_kXc7cuxpNG3Lk8FcQ/file", "/files/s/8Ocb…/file"),
        ("/share/7K2M9QDX/events", "/share/7K2M9QDX/events"), ("/s/", "/s/"),
    ])
    func aLinksTokenIsNeverLoggedWhole(path: String, logged: String) {
        #expect(AccessLog.withoutLinkSecrets(path) == logged)
    }

    @Test func theHeaderFromAnUntrustedPeerIsIgnored() throws {
        let headers: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
        #expect(log.clientAddress(headers, peer: try SocketAddress(ipAddress: "192.0.2.9", port: 4000)) == "192.0.2.9")
    }
}
