import Hummingbird
import ShareKit

/// Names the user of every request by the first way of signing in that applies (a bearer token, a trusted proxy's
/// header, a unix socket's peer), then turns away those that name nobody where someone is needed. With none
/// configured, every request is `local`'s.
func addSignIn(to router: Router<ShareRequestContext>, setup: ServerSetup, scope: SignInScope) {
    guard setup.signInConfigured else {
        router.add(middleware: LocalUserAuthenticator())
        return
    }
    let auth = setup.config.auth
    router.add(middleware: BearerTokenAuthenticator(tokens: TokenTable(setup.credentials), scope: scope))
    if let header = auth.proxyUserHeader {
        let proxy = ProxySignIn(header: header, trustedProxies: setup.config.server.trustedProxies, overUnixSocket: !auth.unixPeer)
        router.add(middleware: ProxyHeaderAuthenticator(proxy: proxy, scope: scope))
    }
    if auth.unixPeer { router.add(middleware: UnixPeerAuthenticator(scope: scope)) }
    router.add(middleware: SignInRequirement(scope: scope, publicRead: auth.publicRead))
}
