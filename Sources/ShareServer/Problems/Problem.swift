import Foundation
import Hummingbird
import ShareKit

/// An answer that is an RFC 9457 problem (`application/problem+json`): what every error becomes on the wire.
/// Hummingbird writes it through `HTTPResponseError`, whichever middleware or route threw it.
struct Problem: HTTPResponseError {
    let details: ProblemDetails
    /// Headers the status calls for (`Allow` with a 405, `WWW-Authenticate` with a 401).
    var headers: HTTPFields = [:]

    /// `type` names a problem clients may tell apart by more than its status (`quota-exceeded`).
    init(_ status: HTTPResponse.Status, _ detail: String, type: String = "about:blank", headers: HTTPFields = [:]) {
        details = ProblemDetails(status: status.code, title: status.reasonPhrase, detail: detail, type: type)
        self.headers = headers
    }

    var status: HTTPResponse.Status { .init(code: details.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = headers
        headers[.contentType] = ProblemDetails.mediaType
        return Response(status: status, headers: headers, body: .init(byteBuffer: encoded))
    }

    /// The problem's JSON, also for answers written outside a route (`ConnectionGuard`).
    var encoded: ByteBuffer {
        ByteBuffer(bytes: (try? WireJSON.encoder().encode(details)) ?? Data())
    }

    /// A request that needs signing in and names nobody: no valid token, and no sign-in by the proxy or the socket.
    static let unauthorized = Problem(
        .unauthorized, "signing in is required: a valid 'Authorization: Bearer <token>' header, or the reverse proxy's sign-in",
        headers: [.wwwAuthenticate: #"Bearer realm="share""#])

    /// A method the path does not serve.
    static func methodNotAllowed(allowed: [HTTPRequest.Method]) -> Problem {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return Problem(.methodNotAllowed, "this path accepts \(list)", headers: [.allow: list])
    }
}
