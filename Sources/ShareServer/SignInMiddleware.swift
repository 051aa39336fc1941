import Hummingbird
import Logging
import ShareKit

/// Names the user of every request (`ShareRequestContext.user`) by the first way of signing in that applies: a
/// bearer token, the header of a trusted reverse proxy, or a unix socket's peer. With none configured, every
/// request is `local`. A request that names nobody is a 401, except on open paths (health checks, the OpenAPI
/// document, the page's files) and, with `publicRead`, GET and HEAD requests, which go on as nobody's.
struct SignInMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let tokens: TokenTable
    let proxy: ProxySignIn?
    let unixPeer: Bool
    let publicRead: Bool
    /// Full paths, base path included, that never need signing in.
    let openPaths: Set<String>
    /// Whether any way of signing in is configured (`ServerSetup.signInConfigured`).
    let configured: Bool

    init(setup: ServerSetup, openPaths: Set<String>) {
        configured = setup.signInConfigured
        tokens = TokenTable(setup.credentials)
        proxy = setup.config.auth.proxyUserHeader.map {
            ProxySignIn(header: $0, trustedProxies: setup.config.server.trustedProxies, overUnixSocket: !setup.config.auth.unixPeer)
        }
        unixPeer = setup.config.auth.unixPeer
        publicRead = setup.config.auth.publicRead
        self.openPaths = openPaths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard configured else { return try await next(request, context) }
        var context = context
        // Open paths ask nobody who they are: a health check with a stale token still gets its answer.
        let isOpen = openPaths.contains(request.uri.path)
        if !isOpen, let (user, method) = try await signIn(request, context) {
            (context.user, context.signedInWith) = (user, method)
        } else {
            guard isOpen || (publicRead && (request.method == .get || request.method == .head))
            else { throw Problem.unauthorized }
            (context.user, context.signedInWith) = (nil, nil)
        }
        return try await next(request, context)
    }

    /// Who the request names, and how; nil when it names nobody. A bearer token that signs in nobody is a 401 at
    /// once, whatever else the request carries; other schemes (a proxy's own Basic sign-in) are not this
    /// server's to read.
    private func signIn(_ request: Request, _ context: Context) async throws -> (String, SignInMethod)? {
        if let header = request.headers[.authorization], header.prefix(7).lowercased() == "bearer " {
            guard let user = tokens.user(of: Array(header.dropFirst(7).utf8)) else { throw Problem.unauthorized }
            return (user, .token)
        }
        if let proxy, let user = try proxy.user(request, peer: context.remoteAddress, logger: context.logger) {
            return (user, .proxy)
        }
        if unixPeer, let channel = context.channel, let user = await UnixPeer.userName(of: channel) {
            guard Credential.isUserName(user), !Credential.isReserved(user) else {
                context.logger.warning("a unix socket peer's user name cannot name a user here", metadata: ["peer_user": "\(user)"])
                throw Problem.unauthorized
            }
            return (user, .unixPeer)
        }
        return nil
    }
}

/// How a request's user signed in; the page offers *Sign out* by it.
enum SignInMethod: String, Sendable {
    case token
    case proxy
    case unixPeer = "unix-peer"
}

/// The bearer tokens and their users, compared without stopping early, so that timing reveals neither a match
/// nor a prefix.
struct TokenTable: Sendable {
    private let entries: [(user: String, secret: [UInt8])]

    init(_ credentials: [Credential]) {
        entries = credentials.map { ($0.user, Array($0.secret.utf8)) }
    }

    var isEmpty: Bool { entries.isEmpty }

    func user(of candidate: [UInt8]) -> String? {
        var matched: String?
        for (user, secret) in entries {
            var difference = secret.count ^ candidate.count
            for index in 0..<max(secret.count, candidate.count) {
                let mine = index < secret.count ? secret[index] : 0
                let theirs = index < candidate.count ? candidate[index] : 0
                difference |= Int(mine ^ theirs)
            }
            if difference == 0 { matched = user }
        }
        return matched
    }
}
