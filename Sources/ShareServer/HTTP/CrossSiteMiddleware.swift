import HTTPTypes
import Hummingbird
import ShareKit

/// Keeps other web sites out of the API, whatever a browser may be led to send on their behalf:
/// - with no sign-in configured, only a `Host` that names this daemon (`allowedHosts`) is answered; anything else
///   is 421, so a site whose name was pointed at 127.0.0.1 (DNS rebinding) cannot read the history;
/// - a change (POST, PUT, PATCH, DELETE) from another origin (`Origin`, `Sec-Fetch-Site: cross-site`) is 403;
/// - a change's body must be declared as what its route reads (`RequestBodyKind`): forms and `text/plain`, the
///   bodies a page may send to another site without a CORS preflight, are 415.
struct CrossSiteMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    /// The host names a request may give besides loopback ones; nil for any (sign-in is configured, or a proxy on
    /// the unix socket decides).
    let allowedHosts: Set<String>?
    /// `""` at the root, `/files` under a sub-path.
    let pathPrefix: String

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// The hosts for `listen` when no sign-in is configured: loopback names, its own host, and `extra`.
    static func allowedHosts(listen: ListenAddress, signInConfigured: Bool, extra: [String]) -> Set<String>? {
        guard !signInConfigured, case .tcp(let host, _) = listen else { return nil }
        return Set(([host] + extra).compactMap { HostName($0)?.name })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1's `Host` header is the request's authority.
        if let allowedHosts, let authority = request.head.authority {
            guard let host = HostName(authority: authority), host.isLoopback || allowedHosts.contains(host.name) else {
                throw Problem(
                    .misdirectedRequest,
                    "this server does not answer for the host '\(authority.prefix(100))'; add it to [server] allowed_hosts if it is this machine")
            }
        }
        if Self.unsafeMethods.contains(request.method) {
            try refuseCrossSite(request)
            try requireJSON(request)
        }
        return try await next(request, context)
    }

    private func refuseCrossSite(_ request: Request) throws {
        if request.headers[Self.secFetchSite]?.lowercased() == "cross-site" {
            throw Problem(.forbidden, "changes are not accepted from another site (Sec-Fetch-Site: cross-site)")
        }
        guard let origin = request.headers[.origin] else { return }
        let own = request.head.authority.flatMap { HostName(authority: $0) }
        // A proxy may pass the host without its port: then the names alone are compared.
        guard let theirs = HostName(origin: origin), let own, theirs.name == own.name, own.port == nil || own.port == theirs.port else {
            throw Problem(.forbidden, "changes are not accepted from the origin '\(origin.prefix(100))', only from this server's own pages")
        }
    }

    private func requireJSON(_ request: Request) throws {
        // An empty body has no type to check (libcurl declares a form for an empty POST); a cross-site one is
        // still refused by its `Origin`.
        let hasBody = request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0
        let accepted = RequestBodyKind(path: request.uri.path, pathPrefix: pathPrefix).mediaTypes
        guard hasBody, !accepted.isEmpty else { return }
        let declared = request.headers[.contentType]
        let mediaType = declared?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard accepted.contains(mediaType) else {
            let given = declared.map { "'\($0.prefix(100))'" } ?? "none"
            throw Problem(.unsupportedMediaType, "the body must be declared as \(accepted.joined(separator: " or ")) (Content-Type), got \(given)")
        }
    }
}
