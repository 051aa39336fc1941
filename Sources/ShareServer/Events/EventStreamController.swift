import Hummingbird
import NIOCore
import ServiceLifecycle
import ShareHistory
import ShareKit

/// `GET /events`: the caller's history's events as they happen, as server-sent events (`id:` the event's number,
/// `event:` its type, `data:` its JSON), from the one after `Last-Event-ID` when a client comes back, else from now.
/// A comment every 15 s keeps proxies from closing a quiet stream; the stream ends when its client goes or the
/// server stops.
struct EventStreamController {
    let histories: Histories
    /// How often a quiet stream looks for new events.
    var poll = Duration.seconds(1)
    static let heartbeat = Duration.seconds(15)

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("events", use: stream)
        routes.rejectMethods(on: "events", except: [.get])
        return routes
    }

    @Sendable func stream(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try context.requireSignedIn()
        let history = try histories.choose(request, context).history
        let start: Int64
        if let last = request.headers[.init("Last-Event-ID")!] {
            guard let number = Int64(last), number >= 0 else {
                throw ShareError.invalidParameter("Last-Event-ID", "must be the id of an event this stream sent, got '\(last.prefix(40))'")
            }
            start = number
        } else {
            start = try await history.lastEventNumber()
        }
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 3000\n: events of this history\n\n"))
            do {
                try await follow(history, after: start, writer: &writer)
            } catch is CancellationError {
                // The server is stopping: the stream ends, and its client comes back to another node or later.
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: body)
    }

    /// Writes the history's events after `start` as they come, and a comment when it has been quiet for a while,
    /// until the server begins to stop.
    private func follow(_ history: any HistoryStore, after start: Int64, writer: inout any ResponseBodyWriter) async throws {
        var after = start
        var quietSince = ContinuousClock.now
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let events = try await history.historyEvents(after: after, limit: 100)
            if let last = events.last {
                try await writer.write(ByteBuffer(string: events.map(Self.frame).joined()))
                after = last.seq
                quietSince = .now
                continue
            }
            if ContinuousClock.now - quietSince >= Self.heartbeat {
                // Long enough that a client's lowest rate (the CLI's: a byte a second) counts the stream as moving.
                try await writer.write(ByteBuffer(string: ": nothing new, still here\n\n"))
                quietSince = .now
            }
            try await Task.sleep(for: poll)
        }
    }

    /// One event as the stream sends it.
    static func frame(_ event: HistoryEvent) -> String {
        let data = String(decoding: event.message.body(), as: UTF8.self)
        return "id: \(event.id)\nevent: \(event.type)\ndata: \(data)\n\n"
    }
}
