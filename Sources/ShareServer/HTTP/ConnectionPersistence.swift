import NIOCore
import NIOHTTP1

/// Tells the rest of the pipeline, in the one way it reads it (`Connection: close` on the request), that a
/// request does not keep its connection: an HTTP/1.0 request without `Connection: keep-alive`, as HTTP/1.0
/// defines. It sits before the HTTP/1 to HTTP types conversion, which drops the version.
final class ConnectionPersistence: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
