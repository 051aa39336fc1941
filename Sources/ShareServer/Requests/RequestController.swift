import Hummingbird
import ShareHistory
import ShareKit

/// `/requests`: the file requests of the caller's history (an admin's `?user=`): links through which anyone sends
/// files into one of its folders (`RequestLinkController`), made, listed newest first, changed (closed, opened again,
/// their limits), deleted. Each shows its link and, to its owner, its code.
struct RequestController {
    let histories: Histories
    let pathPrefix: String
    let maxUploadBytes: Int64

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.post("requests", use: create)
        routes.get("requests") { request, context in
            let history = try history(request, context)
            return try JSONBody.response(try await history.requests(now: .now()).map { shown($0, to: history) })
        }
        routes.get("requests/:request") { request, context in
            let history = try history(request, context)
            return try JSONBody.response(shown(try await history.request(id: Self.id(context), now: .now()), to: history))
        }
        routes.patch("requests/:request", use: change)
        routes.delete("requests/:request") { request, context in
            let id = try Self.id(context)
            try await history(request, context).deleteRequest(id: id)
            context.logger.info("file request deleted", metadata: ["request": "\(id)"])
            return Response(status: .noContent)
        }
        routes.rejectMethods(on: "requests", except: [.get, .post])
        routes.rejectMethods(on: "requests/:request", except: [.get, .patch, .delete])
        return routes
    }

    @Sendable func create(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let history = try history(request, context)
        let body = try await JSONBody.decode(FileRequestBody.self, from: request, maxBytes: 16_384)
        let now = Timestamp.now()
        let made = try await history.createRequest(try body.draft(maxUploadBytes: maxUploadBytes, now: now), now: now)
        context.logger.info("file request made", metadata: ["request": "\(made.id)"])
        return try JSONBody.response(shown(made, to: history), status: .created, headers: [.location: "\(pathPrefix)/requests/\(made.id)"])
    }

    @Sendable func change(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let history = try history(request, context)
        let body = try await JSONBody.decode(FileRequestBody.self, from: request, maxBytes: 16_384)
        let now = Timestamp.now()
        let changed = try await history.changeRequest(id: Self.id(context), try body.change(maxUploadBytes: maxUploadBytes, now: now), now: now)
        return try JSONBody.response(shown(changed, to: history))
    }

    private func history(_ request: Request, _ context: ShareRequestContext) throws -> any HistoryStore {
        try histories.choose(request, context).history
    }

    /// `request` as `history`'s reader sees it: with its link and code for its owner, without them for someone reading a
    /// public history unsigned, whom the link would let write into it.
    private func shown(_ request: FileRequest, to history: any HistoryStore) -> FileRequest {
        var shown = request
        guard history.recordForm.showsCodes else {
            shown.code = nil
            return shown
        }
        shown.link = request.token.map { "\(pathPrefix)/r/\($0)" }
        return shown
    }

    private static func id(_ context: ShareRequestContext) throws(FileRequestError) -> String {
        let id = context.parameters.get("request") ?? ""
        guard (1...40).contains(id.count) else { throw .notFound(id: String(id.prefix(40))) }
        return id
    }
}
