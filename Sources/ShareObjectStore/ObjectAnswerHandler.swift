import NIOCore
import NIOHTTP1

/// One `GET` to an object store on a connection of its own: it sends the request, hands over the answer's head as
/// soon as it comes, then the body in pieces as the reader takes them. The socket is read only while pieces are
/// wanted, and a store silent for `patience` while they are fails the read rather than hold the download for ever.
final class ObjectAnswerHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// How the store answered: its body, or why not.
    enum Answer: Sendable {
        case body(HTTPResponseHead, ObjectBody)
        /// Not a 2xx: the head and the start of its body (S3's error XML).
        case refused(HTTPResponseHead, String)
    }

    private enum State {
        case awaitingHead
        case refusing(HTTPResponseHead, ByteBuffer)
        case streaming(ObjectBody.Source)
        case done
    }

    private static let refusalBytes = 64 * 1024

    private let request: HTTPRequestHead
    private let store: String
    private let patience: TimeAmount
    private let answer: EventLoopPromise<Answer>
    private var state = State.awaitingHead
    private var context: ChannelHandlerContext?
    /// The reader takes more pieces; when it has enough, the socket's next read is held until it asks.
    private var wanted = true
    private var heldRead = false
    private var silence: Scheduled<Void>?
    private var received: Int64 = 0

    init(request: HTTPRequestHead, store: String, patience: TimeAmount, answer: EventLoopPromise<Answer>) {
        self.request = request
        self.store = store
        self.patience = patience
        self.answer = answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        silence?.cancel()
        silence = nil
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .awaitingHead) where (200..<300).contains(head.status.code):
            let made = ObjectBody.make(delegate: ObjectBody.Demand(handler: NIOLoopBound(self, eventLoop: context.eventLoop)))
            state = .streaming(made.source)
            answer.succeed(.body(head, made.body))
        case (.head(let head), .awaitingHead):
            state = .refusing(head, context.channel.allocator.buffer(capacity: 0))
        case (.body(var piece), .refusing(let head, var text)):
            var kept = piece.readSlice(length: min(piece.readableBytes, Self.refusalBytes - text.readableBytes))!
            text.writeBuffer(&kept)
            state = .refusing(head, text)
        case (.body(let piece), .streaming(let source)):
            received += Int64(piece.readableBytes)
            switch source.yield(piece) {
            case .produceMore: break
            case .stopProducing: wanted = false
            case .dropped: finish(context)
            }
        case (.end, .refusing(let head, let text)):
            state = .done
            answer.succeed(.refused(head, String(buffer: text)))
            context.close(promise: nil)
        case (.end, .streaming(let source)):
            state = .done
            source.finish()
            context.close(promise: nil)
        default:
            break
        }
    }

    func read(context: ChannelHandlerContext) {
        guard wanted else {
            heldRead = true
            return
        }
        awaitBytes(context)
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, error as? S3Failure ?? .unreachable(store: store, reason: "\(error)"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        let reason = received > 0 ? "it closed the connection after \(received) bytes" : "it closed the connection"
        fail(context, .unreachable(store: store, reason: reason))
        context.fireChannelInactive()
    }

    /// The reader wants more pieces: a read held back goes on.
    func resume() {
        guard let context, !wanted else { return }
        wanted = true
        if heldRead {
            heldRead = false
            read(context: context)
        }
    }

    /// The reader has gone (it finished, failed or was cancelled): the connection is closed.
    func readerGone() {
        guard let context else { return }
        finish(context)
    }

    /// Body bytes are awaited from now: a store silent for `patience` fails the read. Until the answer is known, the
    /// call's deadline bounds the wait instead.
    private func awaitBytes(_ context: ChannelHandlerContext) {
        guard case .streaming = state, silence == nil else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        silence = context.eventLoop.scheduleTask(in: patience) {
            let handler = loopBound.value
            guard let context = handler.context else { return }
            let seconds = handler.patience.nanoseconds / 1_000_000_000
            handler.fail(context, .unreachable(store: handler.store, reason: "it sent nothing for \(seconds) s"))
        }
    }

    private func fail(_ context: ChannelHandlerContext, _ failure: S3Failure) {
        switch state {
        case .awaitingHead, .refusing: answer.fail(failure)
        case .streaming(let source): source.finish(failure)
        case .done: return
        }
        state = .done
        finish(context)
    }

    private func finish(_ context: ChannelHandlerContext) {
        if case .streaming(let source) = state { source.finish() }
        state = .done
        silence?.cancel()
        silence = nil
        context.close(promise: nil)
    }
}
