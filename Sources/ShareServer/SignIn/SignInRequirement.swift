import Hummingbird

/// After the authenticators: a request that names nobody is a 401, except on open paths and, with `public_read`, GET
/// and HEAD requests, which go on as nobody's.
struct SignInRequirement: RouterMiddleware {
    typealias Context = ShareRequestContext
    let scope: SignInScope
    let publicRead: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.identity != nil || scope.isOpen(request) || (publicRead && (request.method == .get || request.method == .head))
        else { throw Problem.unauthorized }
        return try await next(request, context)
    }
}

/// With no way of signing in configured, every request is `local`'s.
struct LocalUserAuthenticator: RouterMiddleware {
    typealias Context = ShareRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.identity = .local
        return try await next(request, context)
    }
}

extension ShareRequestContext {
    /// A 401 for a public reader (`public_read`, signed in as nobody): what only the history's own people may have
    /// (webhooks, the event stream, the feed's key).
    func requireSignedIn() throws {
        guard user != nil else { throw Problem.unauthorized }
    }
}
