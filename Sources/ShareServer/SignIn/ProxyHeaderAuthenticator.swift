import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore
import ShareKit
import Synchronization

/// Sign-in by a reverse proxy (nginx `auth_basic` or `auth_request`, Caddy `basic_auth` or `forward_auth`,
/// oauth2-proxy, Authelia): the proxy signs the person in and names them in a header. The header is believed only
/// from a trusted proxy (`[server] trusted_proxies`), or over the unix socket when its peer is not itself the user
/// (`unix_peer` off: only the proxy in front, in the socket's group, connects); from anyone else it is ignored,
/// and logged.
struct ProxyHeaderAuthenticator: AuthenticatorMiddleware {
    typealias Context = ShareRequestContext
    let proxy: ProxySignIn
    let scope: SignInScope

    func authenticate(request: Request, context: Context) async throws -> SignedInUser? {
        guard scope.asks(request, context), let user = try proxy.user(request, peer: context.remoteAddress, logger: context.logger)
        else { return nil }
        return SignedInUser(name: user, method: .proxy)
    }
}

/// The proxy's header and whom it is believed from.
struct ProxySignIn: Sendable {
    let header: HTTPField.Name
    let trustedProxies: [IPAddressRange]
    let overUnixSocket: Bool
    private let ignored = IgnoredHeaders()

    init(header: String, trustedProxies: [IPAddressRange], overUnixSocket: Bool) {
        self.header = HTTPField.Name(header)!
        self.trustedProxies = trustedProxies
        self.overUnixSocket = overUnixSocket
    }

    /// The user the proxy names; nil when the request has no header to believe. A trusted proxy that names
    /// someone who cannot be a user (an empty or malformed name) is a 401.
    func user(_ request: Request, peer: SocketAddress?, logger: Logger) throws -> String? {
        guard let name = request.headers[header] else { return nil }
        guard isTrusted(peer) else {
            ignored.note(header: header, peer: peer, logger: logger)
            return nil
        }
        guard Credential.isUserName(name), !Credential.isReserved(name) else {
            logger.warning("the trusted proxy named a user that cannot be one", metadata: ["header": "\(header)"])
            throw Problem.unauthorized
        }
        return name
    }

    private func isTrusted(_ peer: SocketAddress?) -> Bool {
        guard let address = peer?.ipAddress else { return overUnixSocket && peer?.pathname != nil }
        return trustedProxies.contains { $0.contains(address) }
    }
}

/// Headers from untrusted peers, logged at most once a minute with how many came meanwhile: a flood of forged
/// headers must not flood the log too.
private final class IgnoredHeaders: Sendable {
    private let state = Mutex<(lastLogged: ContinuousClock.Instant?, since: Int)>((nil, 0))

    func note(header: HTTPField.Name, peer: SocketAddress?, logger: Logger) {
        let now = ContinuousClock.now
        let count: Int? = state.withLock { state in
            state.since += 1
            guard state.lastLogged.map({ $0.duration(to: now) >= .seconds(60) }) ?? true else { return nil }
            defer { state = (now, 0) }
            return state.since
        }
        guard let count else { return }
        logger.warning(
            "ignored a sign-in header from a peer that is not a trusted proxy",
            metadata: ["header": "\(header)", "peer": "\(peer?.ipAddress ?? "unknown")", "ignored_in_the_last_minute": "\(count)"])
    }
}
