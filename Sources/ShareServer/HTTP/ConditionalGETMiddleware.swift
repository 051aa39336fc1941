import Hummingbird
import ShareHistory

/// HTTP caching for what the app fetches each time its screen appears (listings, records, statistics): a strong
/// `ETag` made of the history's epoch, version and owner, so that it changes whenever anything could have changed and never
/// otherwise; `If-None-Match` with the current tag is answered 304 with no body. The route answers first, so a
/// missing id or a bad parameter is a 404 or 400 whatever tag the request brings; only its 200 becomes a 304.
/// It runs after auth, on the routes that read; the listing and the statistics answer through `answer`
/// themselves, with the tag they read with their rows.
struct ConditionalGETMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let histories: Histories
    /// What else a response depends on (the server's zone and base path), so a new configuration gives new tags.
    let configuration: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        // A request whose history cannot be chosen (a bad `user`) is refused by its route, with no tag to give.
        guard let choice = try? histories.choose(request, context) else { return try await next(request, context) }
        var context = context
        context.chosenHistory = choice
        // The history's own tag: another user's writes never change it.
        let version = try await choice.history.historyTag()
        return Self.answer(request, try await next(request, context), version: version, owner: choice.history.owner, configuration: configuration)
    }

    /// `response` as a route that read history `owner` at `version` answers it: with its tag, or as a 304 when the
    /// request already holds that tag. `version` must be taken before the read: a change during it then gives the
    /// next request a new tag, never a stale 304.
    static func answer(_ request: Request, _ response: Response, version: String, owner: String, configuration: String) -> Response {
        guard response.status == .ok else { return response }
        // The gzip form of a body is another representation with a tag of its own (`ResponseCompression` sends it to
        // every client that takes gzip).
        let form = ResponseCompression<Context>.acceptsGzip(request.headers[.acceptEncoding]) ? "-gzip" : ""
        // Whose history it was: one user's tag is never another's, whose cache may still hold the same URL.
        let tag = "\"\(version)-\(configuration)\(owner.isEmpty ? "" : "-" + owner)\(form)\""
        let caching: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache", .vary: "Accept-Encoding"]
        if EntityTags.noneMatchHolds(request.headers, for: tag) {
            return Response(status: .notModified, headers: caching)
        }
        var response = response
        response.headers.append(contentsOf: caching)
        return response
    }
}
