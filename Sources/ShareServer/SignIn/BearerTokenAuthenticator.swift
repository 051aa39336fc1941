import Hummingbird
import HummingbirdAuth
import ShareKit

/// Sign-in by a bearer token (`[auth] tokens`, `[auth.users]`, the token file). A bearer token that signs in nobody is
/// a 401 at once, whatever else the request carries; other schemes (a proxy's own Basic sign-in) are not this
/// server's to read.
struct BearerTokenAuthenticator: AuthenticatorMiddleware {
    typealias Context = ShareRequestContext
    let tokens: TokenTable
    let scope: SignInScope

    func authenticate(request: Request, context: Context) async throws -> SignedInUser? {
        guard scope.asks(request, context), let header = request.headers[.authorization], header.prefix(7).lowercased() == "bearer "
        else { return nil }
        guard let user = tokens.user(of: Array(header.dropFirst(7).utf8)) else { throw Problem.unauthorized }
        return SignedInUser(name: user, method: .token)
    }
}

/// The bearer tokens and their users, compared without stopping early, so that timing reveals neither a match
/// nor a prefix.
struct TokenTable: Sendable {
    private let entries: [(user: String, secret: [UInt8])]

    init(_ credentials: [Credential]) {
        entries = credentials.map { ($0.user, Array($0.secret.utf8)) }
    }

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
