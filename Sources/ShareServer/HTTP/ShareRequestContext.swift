import Hummingbird
import NIOCore
import ShareKit

/// The per-request context: Hummingbird's core storage, the peer's address (for proxy-aware logging), and whose
/// token the request brought (for the history of each record).
public struct ShareRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The label of the request's token (`BearerAuthMiddleware`); `local` when no tokens are configured.
    public var credential = Credential.localLabel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
