import Hummingbird
import Logging
import NIOCore
import ShareKit

/// Logs one line per request with the real client address, read from `X-Forwarded-For` only behind a trusted proxy.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let trustedProxies: [IPAddressRange]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = started.duration(to: .now)
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "client": "\(clientAddress(request, peer: context.remoteAddress))",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
        return response
    }

    /// The peer, or, when the peer is a trusted proxy (or a unix socket), the nearest untrusted forwarded address.
    func clientAddress(_ request: Request, peer: SocketAddress?) -> String {
        let peerAddress = peer?.ipAddress
        guard peerAddress == nil || trustedProxies.contains(where: { $0.contains(peerAddress!) }),
            let forwarded = request.headers[.init("X-Forwarded-For")!]
        else { return peerAddress ?? "local" }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last { hop in !trustedProxies.contains { $0.contains(hop) } } ?? hops.first ?? peerAddress ?? "local"
    }
}
