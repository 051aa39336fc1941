import Hummingbird
import Metrics

/// Stops a read's work once its client has gone: the connection closing cancels the request's task, and the
/// database read under it is interrupted (GRDB interrupts SQLite on cancellation), so a reader is not kept busy
/// for an answer nobody will read. Only reads: a change whose client has gone still finishes or rolls back whole,
/// as it would have. Counted in `/metrics` (`share_reads_abandoned_total`).
struct ClientGoneMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let ends: ConnectionEnds

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let channel = context.channel else {
            return try await next(request, context)
        }
        return try await withoutActuallyEscaping(next) { next in
            let work = UncheckedHandler(next: next)
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await work.next(request, context) }
                group.addTask {
                    await ends.ended(channel)
                    return nil
                }
                defer { group.cancelAll() }
                // The first to end: the answer, or the connection closing while the answer was being worked out.
                guard case .some(.some(let response)) = try await group.next() else {
                    Counter(label: "share_reads_abandoned_total").increment()
                    context.logger.info("the client has gone: the read stops", metadata: ["path": "\(request.uri.path)"])
                    throw CancellationError()
                }
                return response
            }
        }
    }
}

/// The rest of the middleware chain, handed to a child task that ends before `handle` returns.
private struct UncheckedHandler: @unchecked Sendable {
    let next: (Request, ShareRequestContext) async throws -> Response
}
