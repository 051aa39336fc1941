import Hummingbird

/// Requires `Authorization: Bearer <token>` when tokens are configured.
///
/// Health checks and the OpenAPI document stay open; with `publicRead`, so do GET and HEAD requests.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: [[UInt8]]
    let publicRead: Bool
    /// Full paths, base path included, that never need a token.
    let openPaths: Set<String>

    init(tokens: [String], publicRead: Bool, openPaths: Set<String>) {
        self.tokens = tokens.map { Array($0.utf8) }
        self.publicRead = publicRead
        self.openPaths = openPaths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !tokens.isEmpty, !openPaths.contains(request.uri.path),
            !(publicRead && (request.method == .get || request.method == .head))
        else { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer ",
            isKnown(Array(header.dropFirst(7).utf8))
        else { throw Problem.unauthorized }
        return try await next(request, context)
    }

    /// Compares against every token without stopping early, so timing reveals neither a match nor a prefix.
    private func isKnown(_ candidate: [UInt8]) -> Bool {
        var matched = false
        for token in tokens {
            var difference = token.count ^ candidate.count
            for index in 0..<max(token.count, candidate.count) {
                let mine = index < token.count ? token[index] : 0
                let theirs = index < candidate.count ? candidate[index] : 0
                difference |= Int(mine ^ theirs)
            }
            matched = matched || difference == 0
        }
        return matched
    }
}
