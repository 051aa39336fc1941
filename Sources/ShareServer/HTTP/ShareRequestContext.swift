import Hummingbird
import HummingbirdAuth
import NIOCore
import ShareKit

/// The per-request context: Hummingbird's core storage, the peer's address (for proxy-aware logging), and who
/// is asking (for the history of each record, and `GET /me`).
public struct ShareRequestContext: AuthRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Who is asking, as the authenticators found (`SignIn/`): `local` when no way of signing in is configured; nil
    /// on an open path or a public read that signed in as nobody.
    public var identity: SignedInUser?
    /// The history the request acts on, once chosen (`Histories.choose`), so that it is chosen once.
    var chosenHistory: Histories.Choice?
    /// The connection, for its unix socket peer; nil in router tests.
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The name of who is asking; nil when nobody signed in.
    var user: String? { identity?.name }

    /// Whom the events of a change name: changes are never open to nobody, so always a user.
    var changedBy: String { user ?? Credential.localUser }
}
