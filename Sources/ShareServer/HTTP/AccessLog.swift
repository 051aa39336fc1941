import Hummingbird
import Logging
import NIOCore
import ShareKit

/// The one line each request leaves in the log, whatever its status and wherever it was answered (a route,
/// or the connection guard for requests that never reach one): method, path, status, client, milliseconds.
struct AccessLog: Sendable {
    let trustedProxies: [IPAddressRange]

    func record(
        _ logger: Logger, method: String, path: String, status: Int, headers: HTTPFields, peer: SocketAddress?,
        since started: ContinuousClock.Instant
    ) {
        let elapsed = started.duration(to: .now)
        logger.info(
            "request",
            metadata: [
                "method": "\(method)", "path": "\(path)", "status": "\(status)", "client": "\(clientAddress(headers, peer: peer))",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
    }

    /// The peer, or, when the peer is a trusted proxy (or a unix socket), the nearest untrusted forwarded address.
    func clientAddress(_ headers: HTTPFields, peer: SocketAddress?) -> String {
        let peerAddress = peer?.ipAddress
        guard peerAddress == nil || trustedProxies.contains(where: { $0.contains(peerAddress!) }),
            let forwarded = headers[.init("X-Forwarded-For")!]
        else { return peerAddress ?? "local" }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last { hop in !trustedProxies.contains { $0.contains(hop) } } ?? hops.first ?? peerAddress ?? "local"
    }
}
