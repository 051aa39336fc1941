import Hummingbird
import HummingbirdAuth
import ShareKit

/// Sign-in by a unix socket's peer (`[auth] unix_peer`): the connecting process's Unix user, as the kernel names it.
struct UnixPeerAuthenticator: AuthenticatorMiddleware {
    typealias Context = ShareRequestContext
    let scope: SignInScope

    func authenticate(request: Request, context: Context) async throws -> SignedInUser? {
        guard scope.asks(request, context), let channel = context.channel, let user = await UnixPeer.userName(of: channel) else { return nil }
        guard Credential.isUserName(user), !Credential.isReserved(user) else {
            context.logger.warning("a unix socket peer's user name cannot name a user here", metadata: ["peer_user": "\(user)"])
            throw Problem.unauthorized
        }
        return SignedInUser(name: user, method: .unixPeer)
    }
}
