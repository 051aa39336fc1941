import HTTPTypes
import Hummingbird
import ShareKit

/// Gives every request an id, returned in `X-Request-Id` and carried by every log line of the request: the one a
/// trusted proxy sent, else a new one. The outermost middleware, so that error answers carry it too.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let trustedProxies: [IPAddressRange]
    /// Whether a unix socket's peer is the proxy in front (else, with `unix_peer`, any local user).
    let socketPeerIsProxy: Bool

    static let header = HTTPField.Name("X-Request-Id")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = forwardedID(request, context) ?? RequestID().description
        var context = context
        // Hummingbird's own id is replaced by this one, so that a request has one id in its lines.
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = "\(id)"
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[Self.header] = id
        return response
    }

    /// The id a trusted proxy gave, if it is one a log line can carry: 1–128 visible ASCII characters.
    private func forwardedID(_ request: Request, _ context: Context) -> String? {
        guard let peer = context.remoteAddress, let id = request.headers[Self.header], (1...128).contains(id.utf8.count),
            id.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        // Over a unix socket the proxy in front, unless its peers are local users; otherwise the peer must be listed.
        guard let address = peer.ipAddress else { return socketPeerIsProxy ? id : nil }
        return trustedProxies.contains { $0.contains(address) } ? id : nil
    }
}
