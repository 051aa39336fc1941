import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import ShareKit

/// The first handler of every connection once HTTP is decoded: it keeps the connection's place in the
/// `ConnectionRegistry`, and answers what must be answered before a request reaches a route:
/// - bytes that are not HTTP (a chunk size `zz`, a request line over the limit): a 400 problem, then close;
/// - a transfer coding other than `chunked` (`gzip, chunked`): 501, as the body cannot be read as sent;
/// - `Expect: 100-continue`: 413 at once when the declared length is over the route's limit, else
///   `100 Continue`, so the client sends its body without waiting; any other expectation: 417.
///
/// Each answer it gives leaves its access-log line, like routed requests.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's guard shares.
    struct Rules: Sendable {
        let registry: ConnectionRegistry
        let accessLog: AccessLog
        let logger: Logger
        /// The largest body a request to a (normalised) path may declare; nil for no limit (imports stream).
        let bodyLimit: @Sendable (String) -> Int?
    }

    private let rules: Rules
    private var registered = false
    /// A request's head has been read and its end not yet.
    private var requestOpen = false
    /// A request's head has been read and its response not yet fully written.
    private var responseOwed = false
    /// The open request was answered here: the rest of it is not passed on.
    private var answeredHere = false
    private var current: (head: HTTPRequest, started: ContinuousClock.Instant)?
    /// Malformed bytes that followed a request whose response is still being written: answered after it.
    private var pendingError: HTTPParserError?
    /// The response being written says `Connection: close`: the connection ends with it, even if the request's
    /// body is still arriving (a 408 for a trickled body, a 400 for broken framing).
    private var closeAfterResponse = false

    init(rules: Rules) {
        self.rules = rules
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        rules.registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            (requestOpen, responseOwed, answeredHere, current) = (true, true, false, (head, .now))
            rules.registry.setBusy(context.channel, true)
            if let problem = refusal(of: head) {
                answer(problem, context)
                return
            }
            if head.headerFields[.expect] != nil {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            requestOpen = false
            updateBusy(context)
        }
        if !answeredHere { context.fireChannelRead(data) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            closeAfterResponse = head.headerFields[.connection]?.lowercased() == "close"
            context.write(data, promise: promise)
            return
        case .body:
            context.write(data, promise: promise)
            return
        case .end:
            break
        }
        (responseOwed, current) = (false, nil)
        updateBusy(context)
        guard !closeAfterResponse else {
            let channel = context.channel
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.writeAndFlush(data, promise: written)
            return
        }
        context.write(data, promise: promise)
        if let pendingError {
            answer(Problem(.badRequest, pendingError.problemDetail), context)
        }
    }

    /// Malformed HTTP between requests is answered here; inside a request that a route is reading, the route
    /// meets the error in the body and answers it (see `Problems`).
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError, !answeredHere else {
            if !answeredHere { context.fireErrorCaught(error) }
            return
        }
        if responseOwed && requestOpen {
            context.fireErrorCaught(error)
        } else if responseOwed {
            pendingError = parseError
        } else if requestOpen {
            // Answered already, and the rest of that request's body is broken: nothing more can be read.
            context.close(promise: nil)
        } else {
            answer(Problem(.badRequest, parseError.problemDetail), context)
        }
    }

    private func register(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        if !rules.registry.admit(context.channel) { context.close(promise: nil) }
    }

    private func updateBusy(_ context: ChannelHandlerContext) {
        if !requestOpen && !responseOwed { rules.registry.setBusy(context.channel, false) }
    }

    /// Why `head` cannot be served at all, if it cannot.
    private func refusal(of head: HTTPRequest) -> Problem? {
        if let codings = head.headerFields[.transferEncoding],
            let unknown = codings.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
                .first(where: { $0 != "chunked" })
        {
            return Problem(.notImplemented, "the transfer coding '\(unknown)' is not supported; send the body as it is, or chunked")
        }
        if let expectation = head.headerFields[.expect], expectation.lowercased() != "100-continue" {
            return Problem(.expectationFailed, "only 'Expect: 100-continue' is supported")
        }
        let target = head.path ?? "/"
        let path = RequestPath.normalize(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
        if let declared = head.headerFields[.contentLength].flatMap(Int.init), let limit = rules.bodyLimit(path), declared > limit {
            return Problem(.contentTooLarge, "the request body (\(declared) bytes) is larger than the \(limit) bytes the server accepts")
        }
        return nil
    }

    /// Writes `problem` as the whole response and closes the connection: what follows on it cannot be trusted
    /// to start a new request.
    private func answer(_ problem: Problem, _ context: ChannelHandlerContext) {
        answeredHere = true
        responseOwed = false
        let body = problem.encoded
        let id = RequestID().description
        let fields: HTTPFields = [
            .contentType: ProblemDetails.mediaType, .contentLength: String(body.readableBytes), .connection: "close",
            RequestIDMiddleware.header: id,
        ]
        context.write(wrapOutboundOut(.head(HTTPResponse(status: problem.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        let entry = AccessLog.Entry(
            method: current?.head.method.rawValue ?? "-", path: current?.head.path ?? "-", status: Int(problem.status.code),
            bytes: body.readableBytes, headers: current?.head.headerFields ?? [:], peer: context.remoteAddress,
            started: current?.started ?? .now)
        var logger = rules.logger
        logger[metadataKey: "request_id"] = "\(id)"
        rules.accessLog.record(entry, logger)
    }
}
