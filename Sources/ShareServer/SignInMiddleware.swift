import Hummingbird
import ShareKit

/// Requires `Authorization: Bearer <token>` when tokens are configured, and tells the request whose it is
/// (`ShareRequestContext.credential`).
///
/// Health checks and the OpenAPI document stay open; with `publicRead`, so do GET and HEAD requests.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let credentials: [(label: String, secret: [UInt8])]
    let publicRead: Bool
    /// Full paths, base path included, that never need a token.
    let openPaths: Set<String>

    init(credentials: [Credential], publicRead: Bool, openPaths: Set<String>) {
        self.credentials = credentials.map { ($0.label, Array($0.secret.utf8)) }
        self.publicRead = publicRead
        self.openPaths = openPaths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !credentials.isEmpty, !openPaths.contains(request.uri.path),
            !(publicRead && (request.method == .get || request.method == .head))
        else { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer ",
            let label = label(of: Array(header.dropFirst(7).utf8))
        else { throw Problem.unauthorized }
        var context = context
        context.credential = label
        return try await next(request, context)
    }

    /// The label of the token `candidate` is, comparing against every token without stopping early, so that
    /// timing reveals neither a match nor a prefix.
    private func label(of candidate: [UInt8]) -> String? {
        var matched: String?
        for (label, token) in credentials {
            var difference = token.count ^ candidate.count
            for index in 0..<max(token.count, candidate.count) {
                let mine = index < token.count ? token[index] : 0
                let theirs = index < candidate.count ? candidate[index] : 0
                difference |= Int(mine ^ theirs)
            }
            if difference == 0 { matched = label }
        }
        return matched
    }
}
