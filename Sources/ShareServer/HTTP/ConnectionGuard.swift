import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ShareKit

/// The first handler of every connection once HTTP is decoded: it keeps the connection's place in the
/// `ConnectionRegistry`, and answers what must be answered before a request reaches a route:
/// - bytes that are not HTTP (a chunk size `zz`, a request line over the limit): a 400 problem, then close;
/// - a transfer coding other than `chunked` (`gzip, chunked`): 501, as the body cannot be read as sent;
/// - `Expect: 100-continue`: 413 at once when the declared length is over the route's limit, else
///   `100 Continue`, so the client sends its body without waiting; any other expectation: 417.
///
/// It also keeps every request body moving, whoever sends it and whatever the route: a body must arrive within
/// its `BodyPace`, or the request is answered 408 and its connection closed. A request answered before its body
/// arrived (401, 413, 415…) is answered with `Connection: close`; the rest of its body is read and dropped for
/// at most `lingerTime`, then the connection closes, and meanwhile it does not count as busy. So no client,
/// with a token or without, can hold a connection's place by sending slowly.
///
/// Responses are held to their `ResponsePace` the same way: a client that stops reading a download, or reads it
/// slower than the pace, has its connection closed, which ends the route's sending (a download gives back what it
/// did not send) and frees what the response held. So nobody holds a connection's place by reading slowly either.
///
/// Each answer it gives leaves its access-log line, like routed requests.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the rest of a body answered early is read and dropped, so that the client reads the answer
    /// instead of a reset, before the connection closes.
    static let lingerTime = TimeAmount.seconds(2)

    private let rules: Rules
    /// Where a download hands over the regions of a file it sends with `sendfile`.
    private let handoff = FileRegionHandoff()
    private var registered = false
    /// A request's head has been read and its end not yet.
    private var requestOpen = false
    /// A request's head has been read and its response not yet fully written.
    private var responseOwed = false
    /// The open request's response head has been written.
    private var responseBegun = false
    /// The open request was answered here: the rest of it is not passed on.
    private var answeredHere = false
    private var current: (head: HTTPRequest, started: ContinuousClock.Instant)?
    /// Malformed bytes that followed a request whose response is still being written: answered after it.
    private var pendingError: HTTPParserError?
    /// The response being written says `Connection: close` (the route's own, or one added because the answer came
    /// before the body): the connection ends with it.
    private var closeAfterResponse = false
    /// The response was written before the request's body ended: what still arrives is dropped, until the client
    /// finishes or `lingerTime` passes.
    private var lingering = false
    /// The last answer's writing, which a close waits for.
    private var answerWritten: EventLoopFuture<Void>?
    /// The timer of the open request's body pace, or of the linger.
    private var deadline: Scheduled<Void>?
    /// For `BodyPace.atLeast`: the body's bytes this window, and the time the server waited for them.
    private var windowBytes = 0
    private var windowWaited = TimeAmount.zero
    /// Since when the server has asked for bytes and none came; nil while none are asked for.
    private var waitingSince: NIODeadline?
    /// The response bytes passed to the connection, and how many of them it had sent at the last look.
    private var responseBytesQueued: Int64 = 0
    private var responseBytesSentAtLook: Int64 = 0
    /// When the client last took response bytes, or the server last had none waiting for it.
    private var responseLastTaken = NIODeadline.now()
    /// The look at the response's pace due next; nil while no response bytes are being written.
    private var responseWatch: Scheduled<Void>?
    /// Response bytes were waiting for the client at the last look.
    private var responseWaitedAtLook = false

    init(rules: Rules) {
        self.rules = rules
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The server's pipeline takes extra handlers only after the HTTP/1 conversion; these must read the HTTP
        // version, or write file regions, so they go before it.
        let pipeline = context.pipeline.syncOperations
        if let conversion = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(ConnectionPersistence(), position: .before(conversion))
            try? pipeline.addHandler(handoff, position: .before(conversion))
        }
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        responseWatch?.cancel()
        rules.registry.remove(context.channel)
        rules.ends.end(context.channel)
        context.fireChannelInactive()
    }

    /// A client that closes its side of the connection while a read's answer is still owed has gone: the
    /// connection closes, so the read stops (`ConnectionEnds`, `ClientGoneMiddleware`), as Go's servers cancel a
    /// request whose connection reached its end. A change, or a request still sending its body, is left to finish.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(.inputClosed) = event as? ChannelEvent, responseOwed, !requestOpen,
            let method = current?.head.method, method == .get || method == .head
        {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Notes that the server is ready for more bytes: the time until they come is the client's.
    func read(context: ChannelHandlerContext) {
        if waitingSince == nil { waitingSince = .now() }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let since = waitingSince {
            windowWaited = windowWaited + (.now() - since)
            waitingSince = nil
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            (requestOpen, responseOwed, responseBegun, answeredHere, current) = (true, true, false, false, (head, .now))
            rules.registry.setBusy(context.channel, true)
            let rule = rules.bodyRule(Self.path(of: head))
            if let problem = Self.refusal(of: head, maxBytes: rule.maxBytes) {
                answer(problem, context, readingTheRest: true)
                return
            }
            if head.headerFields[.expect] != nil {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            if Self.hasBody(head) { keepPace(rule.pace, context) }
        case .body(let bytes):
            windowBytes += bytes.readableBytes
        case .end:
            requestOpen = false
            deadline?.cancel()
            if lingering {
                closeOnceWritten(context)
                return
            }
            updateBusy(context)
        }
        if !answeredHere && !lingering { context.fireChannelRead(data) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !answeredHere else {
            // The route was still reading when this guard answered (a 408): its own answer has no place.
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if requestOpen && head.status.kind != .informational {
                // Answered before the body arrived: the connection cannot carry another request.
                head.headerFields[.connection] = "close"
            }
            if head.status.kind != .informational { responseBegun = true }
            closeAfterResponse = head.headerFields[.connection]?.lowercased() == "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .body(let bytes):
            responseBytesQueued += Int64(handoff.length(of: bytes) ?? bytes.readableBytes)
            if responseWatch == nil { (responseLastTaken, responseWaitedAtLook) = (.now(), false) }
            watchResponse(context)
            context.write(data, promise: promise)
            return
        case .end:
            break
        }
        (responseOwed, current) = (false, nil)
        guard !closeAfterResponse else {
            finish(context, writing: data, promise: promise, readingTheRest: true)
            return
        }
        updateBusy(context)
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
        if (!requestOpen || lingering) && !responseOwed { rules.registry.setBusy(context.channel, false) }
    }

    /// Writes the last part of a response after which the connection closes: at once when the request was read
    /// whole or `readingTheRest` is false; otherwise the rest of the body is dropped for `lingerTime` at most
    /// (a client sending it fast then reads the answer, not a reset), then the connection closes.
    private func finish(
        _ context: ChannelHandlerContext, writing end: NIOAny, promise: EventLoopPromise<Void>?, readingTheRest: Bool
    ) {
        let written = promise ?? context.eventLoop.makePromise()
        context.writeAndFlush(end, promise: written)
        answerWritten = written.futureResult
        guard requestOpen && readingTheRest else {
            closeOnceWritten(context)
            return
        }
        lingering = true
        updateBusy(context)
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { [self] in closeOnceWritten(context) }
    }

    private func closeOnceWritten(_ context: ChannelHandlerContext) {
        let channel = context.channel
        guard let answerWritten else { return channel.close(promise: nil) }
        answerWritten.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Starts the clock on the open request's body.
    private func keepPace(_ pace: BodyPace, _ context: ChannelHandlerContext) {
        deadline?.cancel()
        switch pace {
        case .within(let time):
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: time) { [self] in
                tooSlow("the request body did not arrive within \(time.nanoseconds / 1_000_000_000) seconds", context)
            }
        case .atLeast(let rate, let window):
            (windowBytes, windowWaited) = (0, .zero)
            if waitingSince != nil { waitingSince = .now() }
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: window) { [self] in
                if let since = waitingSince {
                    windowWaited = windowWaited + (.now() - since)
                    waitingSince = .now()
                }
                let expected = Int64(rate) * windowWaited.nanoseconds / 1_000_000_000
                // Judged only over a window the server spent mostly waiting for the client.
                if windowWaited.nanoseconds * 2 >= window.nanoseconds && Int64(windowBytes) < expected {
                    let measured = Int64(windowBytes) * 1_000_000_000 / max(windowWaited.nanoseconds, 1)
                    tooSlow("the request body arrived at \(measured) bytes a second, below the \(rate) the server requires", context)
                } else {
                    keepPace(pace, context)
                }
            }
        }
    }

    /// Looks at the response's pace once a window while its bytes are being written; a client that took none for
    /// `stall`, or fewer than the pace asks over a window the server spent waiting for it, is cut off.
    private func watchResponse(_ context: ChannelHandlerContext) {
        guard responseWatch == nil else { return }
        let pace = rules.responsePace
        responseWatch = context.eventLoop.assumeIsolated().scheduleTask(in: pace.window) { [self] in
            responseWatch = nil
            let waiting = Int64((try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0)
            let sent = max(responseBytesSentAtLook, responseBytesQueued - waiting)
            let taken = sent - responseBytesSentAtLook
            let waitedAllWindow = responseWaitedAtLook && waiting > 0
            (responseBytesSentAtLook, responseWaitedAtLook) = (sent, waiting > 0)
            let now = NIODeadline.now()
            if taken > 0 || waiting == 0 { responseLastTaken = now }
            if now - responseLastTaken >= pace.stall {
                cutOff("took none of the response for \(pace.stall.nanoseconds / 1_000_000_000) seconds", context)
            } else if waitedAllWindow && taken < Int64(pace.bytesPerSecond) * pace.window.nanoseconds / 1_000_000_000 {
                cutOff("took \(taken) bytes of the response in \(pace.window.nanoseconds / 1_000_000_000) seconds", context)
            } else if waiting > 0 || responseOwed {
                watchResponse(context)
            }
        }
    }

    /// Closes the connection of a client too slow to take its response.
    private func cutOff(_ reason: String, _ context: ChannelHandlerContext) {
        rules.logger.info("connection closed: the client \(reason)", metadata: ["peer": "\(context.remoteAddress.map { "\($0)" } ?? "-")"])
        context.close(promise: nil)
    }

    /// The body is too slow: a 408 when the route has not begun its answer, and the connection closes either way.
    private func tooSlow(_ detail: String, _ context: ChannelHandlerContext) {
        guard requestOpen, !lingering else { return }
        if responseOwed && !responseBegun {
            answer(Problem(.requestTimeout, detail), context)
        } else {
            closeOnceWritten(context)
        }
    }

    /// A request with a body to wait for: a length above zero, or a chunked one.
    private static func hasBody(_ head: HTTPRequest) -> Bool {
        head.headerFields[.transferEncoding] != nil || (head.headerFields[.contentLength].flatMap(Int.init) ?? 0) > 0
    }

    /// The request's path in its one spelling, without the query.
    private static func path(of head: HTTPRequest) -> String {
        let target = head.path ?? "/"
        return RequestPath.normalize(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
    }

    /// Writes `problem` as the whole response and closes the connection: what follows on it cannot be trusted
    /// to start a new request.
    private func answer(_ problem: Problem, _ context: ChannelHandlerContext, readingTheRest: Bool = false) {
        answeredHere = true
        let body = problem.encoded
        let id = RequestID().description
        let fields: HTTPFields = [
            .contentType: ProblemDetails.mediaType, .contentLength: String(body.readableBytes), .connection: "close",
            RequestIDMiddleware.header: id,
        ]
        context.write(wrapOutboundOut(.head(HTTPResponse(status: problem.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        responseOwed = false
        finish(context, writing: wrapOutboundOut(.end(nil)), promise: nil, readingTheRest: readingTheRest)
        let entry = AccessLog.Entry(
            method: current?.head.method.rawValue ?? "-", path: current?.head.path ?? "-", status: Int(problem.status.code),
            bytes: body.readableBytes, headers: current?.head.headerFields ?? [:], peer: context.remoteAddress,
            started: current?.started ?? .now)
        var logger = rules.logger
        logger[metadataKey: "request_id"] = "\(id)"
        rules.accessLog.record(entry, logger)
    }
}
