import Hummingbird
import Logging
import NIOCore
import ShareKit

/// The one line each request leaves in the log, whatever its status and wherever it was answered (a route,
/// or the connection guard for requests that never reach one): method, route (the route's template, `-` when
/// none matched), path, status, bytes of the body (`-` when streamed), milliseconds, client.
struct AccessLog: Sendable {
    let trustedProxies: [IPAddressRange]
    /// Whether a unix socket's peer is the proxy in front (else, with `unix_peer`, any local user, whose forwarding
    /// headers are not believed).
    var socketPeerIsProxy = true

    /// One request's line; `route` is nil when no route matched, `bytes` when the body was streamed.
    struct Entry {
        var method: String
        var route: String?
        var path: String
        var status: Int
        var bytes: Int?
        var headers: HTTPFields
        var peer: SocketAddress?
        var started: ContinuousClock.Instant
    }

    func record(_ entry: Entry, _ logger: Logger) {
        let elapsed = entry.started.duration(to: .now)
        logger.info(
            "request",
            metadata: [
                "method": "\(entry.method)", "route": "\(entry.route ?? "-")", "path": "\(Self.withoutLinkSecrets(entry.path))",
                "status": "\(entry.status)",
                "bytes": "\(entry.bytes.map(String.init) ?? "-")", "client": "\(clientAddress(entry.headers, peer: entry.peer))",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
    }

    /// `path` with the token of a share's link (`/s/{token}`) or a file request's (`/r/{token}`) cut to its first four
    /// characters: whoever reads the log can tell requests for one link apart, but not open it. (Codes come in the
    /// query, which is never logged.)
    static func withoutLinkSecrets(_ path: String) -> String {
        guard path.contains("/s/") || path.contains("/r/") else { return path }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for index in segments.indices.dropFirst() where ["s", "r"].contains(segments[index - 1]) && segments[index].count > 4 {
            segments[index] = segments[index].prefix(4) + "…"
        }
        return segments.joined(separator: "/")
    }

    /// The peer, or, when the peer is a trusted proxy (or a unix socket), the nearest untrusted forwarded address.
    func clientAddress(_ headers: HTTPFields, peer: SocketAddress?) -> String {
        let peerAddress = peer?.ipAddress
        let trusted = peerAddress.map { address in trustedProxies.contains { $0.contains(address) } } ?? socketPeerIsProxy
        guard trusted,
            let forwarded = headers[.init("X-Forwarded-For")!]
        else { return peerAddress ?? "local" }
        // Only addresses are believed: anything else in the header (a name, a line of text) is dropped, never logged.
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.contains("/") && IPAddressRange($0) != nil }
        return hops.last { hop in !trustedProxies.contains { $0.contains(hop) } } ?? hops.first ?? peerAddress ?? "local"
    }
}
