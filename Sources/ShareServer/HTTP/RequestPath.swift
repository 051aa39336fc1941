import Hummingbird
import ShareKit

/// One spelling of every request path, so that routing and the rule of which paths need no token always agree:
/// `/healthz/`, `//healthz`, `/share/../healthz` and `/%68ealthz` are all `/healthz`.
enum RequestPath {
    /// Percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2: `%50ATHT1` is `PATHT1`), empty and `.`
    /// segments dropped, `..` applied. Other escapes stay as they are: a decoded `%2F` would be a new segment.
    static func normalize(_ path: Substring) -> String {
        var segments: [String] = []
        for segment in path.split(separator: "/") {
            switch decodingUnreserved(segment) {
            case ".": continue
            case "..": _ = segments.popLast()
            case let plain: segments.append(plain)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    private static func decodingUnreserved(_ segment: Substring) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        var bytes = Array(segment.utf8)
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), let high = FormEncoding.hexValue(bytes[index + 1]),
                let low = FormEncoding.hexValue(bytes[index + 2]),
                FormEncoding.isUnreserved(high << 4 | low)
            {
                bytes.replaceSubrange(index...(index + 2), with: [high << 4 | low])
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Hands the router each request with its path in the one spelling of `RequestPath`. Hummingbird matches routes
/// before any middleware runs, so the path is rewritten here, in front of the router.
struct NormalizedPathResponder<Router: HTTPResponder>: HTTPResponder {
    let router: Router

    func respond(to request: Request, context: Router.Context) async throws -> Response {
        let target = request.head.path ?? "/"
        let queryStart = target.firstIndex(of: "?") ?? target.endIndex
        let path = RequestPath.normalize(target[..<queryStart])
        guard path != target[..<queryStart] else { return try await router.respond(to: request, context: context) }
        var head = request.head
        head.path = path + target[queryStart...]
        return try await router.respond(to: Request(head: head, body: request.body), context: context)
    }
}
