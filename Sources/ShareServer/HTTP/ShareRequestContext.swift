import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer's address, for proxy-aware logging.
public struct ShareRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
