import Foundation
import Hummingbird
import ShareHistory
import ShareKit

/// A file request's link, for whoever sends files through it, with no sign-in: `GET /r/{token}`, the page, and the
/// files' uploads: tus (`/r/{token}/uploads`, resumable, as the page sends them) and one `PUT /r/{token}/files/{name}`
/// per file (`curl -T`). The code, when the request has one, comes as for a share's link (`LinkCodeGate`): `?code=`,
/// or the page's form, remembered in a cookie of the link's own. A sender sees nothing of what others sent, and is
/// told of a file that arrived only its name and size (`SentFile`).
struct RequestLinkController {
    /// Whose history a request's files go to, and the store its links are read from.
    let histories: Histories
    let gate: LinkCodeGate
    let addresses: AccessLog
    let pathPrefix: String
    let pages: RecipientPage
    let uploads: UploadController

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("r/:token", use: page)
        routes.post("r/:token", use: enter)
        routes.post("r/:token/uploads", use: create)
        routes.head("r/:token/uploads/:upload", use: offset)
        routes.patch("r/:token/uploads/:upload", use: append)
        routes.delete("r/:token/uploads/:upload", use: abandon)
        routes.put("r/:token/files/:name", use: put)
        routes.rejectMethods(on: "r/:token", except: [.get, .post])
        routes.rejectMethods(on: "r/:token/uploads", except: [.post])
        routes.rejectMethods(on: "r/:token/uploads/:upload", except: [.head, .patch, .delete])
        routes.rejectMethods(on: "r/:token/files/:name", except: [.put])
        return routes
    }

    /// A request's link as a request opens it: the request and the code it was given.
    private struct Opened {
        let request: OpenedRequest
        let code: String?
        /// Its owner's history, where its files go, and whom their events name.
        let choice: Histories.Choice
        /// `{base}/r/{token}`.
        let link: String
    }

    /// Whether the link of the request's token opens: the request, or the page that says why not. A closed or
    /// expired request opens only to say so.
    private func open(_ request: Request, _ context: ShareRequestContext, given form: String? = nil) async throws -> Result<Opened, Refusal> {
        let client = addresses.clientAddress(request.headers, peer: context.remoteAddress)
        let token = context.parameters.get("token") ?? ""
        guard LinkToken.isPlausible(token), let opened = try await histories.store.openRequest(token: token, now: .now()) else {
            return .failure(Refusal(content: gate.unknownToken(from: client)))
        }
        let state = opened.request.state
        if state == .closed || state == .expired { return .failure(Refusal(content: .requestClosed(state))) }
        switch try gate.check(opened.request.code, token: token, request, client: client, given: form) {
        case .refused(let content):
            return .failure(Refusal(content: content))
        case .passes(let given):
            let choice = histories.choice(of: opened.owner, by: FileRequest.source(id: opened.request.id))
            return .success(Opened(request: opened, code: given, choice: choice, link: "\(pathPrefix)/r/\(token)"))
        }
    }

    /// Why a link does not open: the page that says so, or for a script, the same as a problem.
    private struct Refusal: Error {
        let content: RecipientPage.Content

        var problem: Problem {
            switch content {
            case .code(let wrong, _):
                Problem(.forbidden, wrong ? "the code is not right" : "this link needs its code: give it as ?code=")
            case .tooManyTries(let seconds):
                Problem(.tooManyRequests, "too many tries: try again in \(seconds) s", headers: [.retryAfter: "\(seconds)"])
            case .requestClosed(let state):
                Problem(.gone, FileRequestError.closed(state).detail)
            default:
                Problem(.notFound, "no such link: check that it was copied whole")
            }
        }
    }

    @Sendable func page(_ request: Request, context: ShareRequestContext) async throws -> Response {
        switch try await open(request, context) {
        case .failure(let refusal): return pages.response(refusal.content, of: .request)
        case .success(let opened):
            let query = opened.code.map { "?code=\($0)" } ?? ""
            return pages.response(.request(opened.request, link: opened.link, query: query, script: "\(pathPrefix)/request.js"), of: .request)
        }
    }

    /// `POST /r/{token}`: the code typed in the page's form, remembered for the link as a share's is.
    @Sendable func enter(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let form = try await request.body.collect(upTo: RequestBodyKind.maxCodeFormBytes)
        let given = try FormEncoding.values(String(buffer: form), known: ["code"])["code"] ?? ""
        switch try await open(request, context, given: given) {
        case .failure(let refusal): return pages.response(refusal.content, of: .request)
        case .success(let opened):
            var headers: HTTPFields = [.location: opened.link, .cacheControl: "no-store"]
            if let code = opened.code { headers[.setCookie] = LinkCodeCookie.setting(code, path: opened.link) }
            return Response(status: .seeOther, headers: headers)
        }
    }

    /// The opened link of a script's request (tus, `PUT`): its refusals as problems.
    private func opened(_ request: Request, _ context: ShareRequestContext) async throws -> Opened {
        switch try await open(request, context) {
        case .failure(let refusal): throw refusal.problem
        case .success(let opened): return opened
        }
    }

    /// `POST /r/{token}/uploads`: a file's upload (tus), named by its `Upload-Metadata`; the request takes its place
    /// in its limits now.
    @Sendable func create(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        let length = try TusProtocol.bytes(request.headers, .uploadLength)
        let name = try UploadMetadata.fileName(request.headers[.uploadMetadata])
        let opened = try await opened(request, context)
        let share = try NewShare.sent(named: name, size: length, through: opened.request.request)
        let firstBytes = length == 0 || request.headers[.contentType] != nil ? request.body : nil
        let status = try await start(share, opened, context, receiving: firstBytes, keepingWhatArrived: true)
        var headers = TusProtocol.headers(status)
        headers[.location] = "\(opened.link)/uploads/\(status.id)"
        return try answer(status, created: true, headers: headers)
    }

    @Sendable func offset(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        let (opened, id) = try await upload(request, context)
        let status = try await opened.choice.history.finishCutOffUpload(id: id, now: .now(), by: opened.choice.by)
        return Response(status: .ok, headers: TusProtocol.headers(status))
    }

    @Sendable func append(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        guard request.headers[.contentType]?.lowercased() == TusProtocol.mediaType else {
            throw Problem(.unsupportedMediaType, "the body must be declared as \(TusProtocol.mediaType) (Content-Type)")
        }
        let offset = try TusProtocol.bytes(request.headers, .uploadOffset)
        let (opened, id) = try await upload(request, context)
        let status = try await uploads.receive(request.body, into: id, at: offset, opened.choice, for: opened.choice.by, context)
        return try answer(status, created: false, headers: TusProtocol.headers(status))
    }

    @Sendable func abandon(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        let (opened, id) = try await upload(request, context)
        try await opened.choice.history.abandonUpload(id: id)
        return Response(status: .noContent, headers: [.tusResumable: TusProtocol.version])
    }

    /// `PUT /r/{token}/files/{name}`: one file, whole, as `curl -T FILE` sends it (its length declared). A body that
    /// breaks off leaves nothing behind: its place in the request is free again.
    @Sendable func put(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard let length = request.headers[.contentLength].flatMap({ Int64(clientDigits: $0) }) else {
            throw Problem(.init(code: 411, reasonPhrase: "Length Required"), "send the file's length (Content-Length), as curl -T FILE does")
        }
        let name = try FileName.validate((context.parameters.get("name") ?? "").removingPercentEncoding ?? "")
        let opened = try await opened(request, context)
        let share = try NewShare.sent(named: name, size: length, through: opened.request.request)
        let status = try await start(share, opened, context, receiving: request.body, keepingWhatArrived: false)
        guard let record = status.share else {
            try? await opened.choice.history.abandonUpload(id: status.id)
            throw Problem(.badRequest, "the body ended after \(status.offset) of the \(length) bytes it declared")
        }
        context.logger.info("file received", metadata: ["request": "\(opened.request.request.id)", "bytes": "\(length)"])
        return try JSONBody.response(SentFile(record), status: .created)
    }

    /// Starts the upload of `share` in the request's owner's history, refused beyond the server's limit of a file
    /// before anything is kept; with `firstBytes`, an upload whose bytes break off is kept to resume from
    /// (`keepingWhatArrived`), or dropped, its place in the request free again. A sender is told that the owner's
    /// storage is full, never what it holds.
    private func start(
        _ share: NewShare, _ opened: Opened, _ context: ShareRequestContext, receiving firstBytes: RequestBody?, keepingWhatArrived: Bool
    ) async throws -> UploadStatus {
        guard share.size <= uploads.maxUploadBytes else { throw ShareError.uploadTooLarge(limit: uploads.maxUploadBytes) }
        let started: UploadStatus
        do {
            started = try await uploads.start(share, in: opened.choice, for: opened.choice.by, context, receiving: nil)
        } catch ShareError.quotaExceeded {
            throw Problem(.forbidden, "this file does not fit in the storage of whoever asked for it: tell them")
        }
        guard let firstBytes else { return started }
        do {
            return try await uploads.receive(firstBytes, into: started.id, at: 0, opened.choice, for: opened.choice.by, context)
        } catch {
            if !keepingWhatArrived { try? await opened.choice.history.abandonUpload(id: started.id) }
            throw error
        }
    }

    /// The request's link opened, and the id of one of its uploads (another's is not found).
    private func upload(_ request: Request, _ context: ShareRequestContext) async throws -> (Opened, String) {
        let opened = try await opened(request, context)
        let id = try UploadController.id(context)
        guard try await opened.choice.history.upload(id: id).request == opened.request.request.id else { throw ShareError.uploadNotFound(id: id) }
        return (opened, id)
    }

    /// A tus answer: the sent file once its last byte arrived.
    private func answer(_ status: UploadStatus, created: Bool, headers: HTTPFields) throws -> Response {
        guard let record = status.share else { return Response(status: created ? .created : .noContent, headers: headers) }
        return try JSONBody.response(SentFile(record), status: created ? .created : .ok, headers: headers)
    }
}
