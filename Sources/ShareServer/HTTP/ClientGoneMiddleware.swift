import Hummingbird
import Metrics

/// Stops a read's work once its client has gone: the connection closing cancels the request's task, and the
/// database read under it is interrupted (GRDB interrupts SQLite on cancellation), so a reader is not kept busy
/// for an answer nobody will read. Only reads: a change whose client has gone still finishes or rolls back whole,
/// as it would have. Counted in `/metrics` (`share_reads_abandoned_total`).
///
/// Watching costs a task a request (measured at a million records with wrk: a tenth of the newest page's rate,
/// 3–5 % of a filtered page's), so only the reads that can take long are watched: statistics, exports, events,
/// and listings that filter or sort, not the page of the newest shares.
struct ClientGoneMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let ends: ConnectionEnds
    /// The base path, which every path starts with.
    let pathPrefix: String

    /// A listing's parameters that never make it heavy: a page of the newest (or oldest) first, where it is.
    private static let plainListing: Set<String> = ["limit", "cursor", "order", "tz"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, mayTakeLong(request), let channel = context.channel else {
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

extension ClientGoneMiddleware {
    /// Whether the read may take long enough for its client to leave before the answer.
    func mayTakeLong(_ request: Request) -> Bool {
        let path = request.uri.path
        guard path.hasPrefix(pathPrefix + "/") else { return false }
        switch path.dropFirst(pathPrefix.count + 1).split(separator: "/") {
        case ["share"]: return request.uri.queryParameters.contains { !Self.plainListing.contains(String($0.key)) }
        case ["share", "stats"], ["share", "export"]: return true
        case let parts where parts.count == 3 && parts[0] == "share" && parts[2] == "events": return true
        default: return false
        }
    }
}

/// The rest of the middleware chain, handed to a child task that ends before `handle` returns.
private struct UncheckedHandler: @unchecked Sendable {
    let next: (Request, ShareRequestContext) async throws -> Response
}
