import Hummingbird
import ShareHistory
import ShareKit

/// A share's link, for its recipient, with no sign-in: `GET /s/{token}`, the page, and `GET|HEAD /s/{token}/file`,
/// the file (its bytes, or for a share made elsewhere a redirect to its `source`). The token is the link's secret; the
/// code, when the share has one, comes as `?code=` (scripts, `share get`), or from the page's form (`POST`), after
/// which the browser carries it in a cookie of the link's own.
///
/// Guesses are held off where they could hurt, and nothing else is (`LinkCodeGate`). Downloads are counted per address, each a write that anyone with the link could otherwise repeat without end.
///
/// Every request that sends bytes of the file is in the share's access log with the bytes it asked for; the one that
/// reaches the file's end counts the download. Under a download limit, no set of requests is sent more than the
/// bytes of that many whole downloads, however they cut the file into ranges.
struct LinkController {
    let store: any ShareStore
    /// Tokens tried and codes given.
    let gate: LinkCodeGate
    let downloads: LinkThrottle
    let expiries = NotedExpiries()
    /// Whose address a request is (a trusted proxy's forwarded one).
    let addresses: AccessLog
    let pathPrefix: String
    /// The recipient's pages, with the service's name.
    let pages: RecipientPage
    /// `[files] downloads = "redirect"`: a file in a bucket is handed out as a presigned URL, counted then.
    let redirects: Bool
    /// The pictures the pages preview, and the largest file one is made from (`[server] max_picture_bytes`).
    let previews: PreviewPictures
    let pictureBytes: Int
    /// The ZIPs of shares of several files.
    let bundles: BundleArchives

    var endpoints: RouteCollection<ShareRequestContext> {
        RouteCollection(context: ShareRequestContext.self)
            .get("s/:token", use: page)
            .post("s/:token", use: enter)
            .get("s/:token/file", use: file)
            .get("s/:token/zip", use: zip)
            .get("s/:token/files/:n", use: fileOfSeveral)
            .get("s/:token/thumbnail", use: thumbnail)
            .get("s/:token/preview", use: preview)
            .get("s/:token/media", use: media)
    }

    /// `POST /s/{token}`: the code typed in the page's form. A right one is remembered for the link alone
    /// (`LinkCodeCookie`) and the page shown again at its plain address, so that the code never stands in the address
    /// bar, a forwarded URL or a reload; a wrong one is the form again, saying so.
    @Sendable func enter(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let form = try await request.body.collect(upTo: RequestBodyKind.maxCodeFormBytes)
        let given = try FormEncoding.values(String(buffer: form), known: ["code"])["code"] ?? ""
        switch try await open(request, context, client: client(request, context), given: given) {
        case .refused(let content):
            return pages.response(content)
        case .share(_, let token, let code):
            let address = "\(pathPrefix)/s/\(token)"
            var headers: HTTPFields = [.location: address, .cacheControl: "no-store"]
            if let code { headers[.setCookie] = LinkCodeCookie.setting(code, path: address) }
            return Response(status: .seeOther, headers: headers)
        }
    }

    /// Why a link does not open for a request, or what it opens with the code it was given.
    enum Opening {
        case share(OpenedLink, token: String, code: String?)
        case refused(RecipientPage.Content)
    }

    @Sendable func page(_ request: Request, context: ShareRequestContext) async throws -> Response {
        switch try await open(request, context, client: client(request, context)) {
        case .refused(let content):
            return pages.response(content)
        case .share(let opened, let token, let code):
            let preview = previewKind(opened)
            var text: RecipientPage.Text?
            // A store that does not answer leaves the page without its text, not without the page.
            if preview == .text, let bytes = opened.bytes { text = try? await textPreview(bytes) }
            let query = code.map { "?code=\($0)" } ?? ""
            return pages.response(.share(opened.share, link: "\(pathPrefix)/s/\(token)", query: query, preview: preview, text: text))
        }
    }

    @Sendable func file(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try await download(.whole, request, context)
    }

    @Sendable func zip(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try await download(.zip, request, context)
    }

    @Sendable func fileOfSeveral(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard let part = DownloadPart(fileNumber: context.parameters.get("n")) else { return pages.response(.notFound) }
        return try await download(part, request, context)
    }

    /// `part` of the request's share: its bytes, or for a share made elsewhere a redirect to its `source`.
    private func download(_ part: DownloadPart, _ request: Request, _ context: ShareRequestContext) async throws -> Response {
        let client = client(request, context)
        switch try await open(request, context, client: client) {
        case .refused(.code):
            // The file itself is never answered without its code.
            return pages.response(.code(wrong: true))
        case .refused(let content):
            return pages.response(content)
        case .share(let opened, let token, _):
            let record = opened.share
            if let bytes = opened.bytes {
                guard let sent = try await bundles.part(part, of: record, bytes) else { return pages.response(.notFound) }
                return try await send(sent, request, context, client: client, token: token)
            }
            guard part == .whole, let source = record.source, !ShareSource.isRequest(source) else { return pages.response(.notFound) }
            if request.method != .head, case .failure(let refusal) = try await log(request, client, token: token, bytes: nil, complete: true) {
                return refusal.page
            }
            return Response(
                status: .found, headers: [.location: source, .cacheControl: "no-store", .init("Referrer-Policy")!: "no-referrer"])
        }
    }

    /// Sends the range a request asks of `part`, logged and counted.
    private func send(_ part: PartBytes, _ request: Request, _ context: ShareRequestContext, client: String, token: String) async throws -> Response {
        let bytes = part.bytes
        let tag = SharedFile.tag(token: token + part.tagWord)
        let range = SharedFile.range(request, size: bytes.size, tag: tag)
        if let unchanged = SharedFile.notModified(request, named: part.name, range, tag: tag) { return unchanged }
        // A HEAD, or a range past the end, sends nothing: nothing to log.
        guard request.method != .head, let sent = range.sent(of: bytes.size) else {
            return try await SharedFile.response(named: part.name, bytes, range, tag: tag, sendsNothing: true)
        }
        if redirects, let url = bytes.presignedURL(validFor: FilesSettings.redirectSeconds) {
            return try await handOut(url, request, client, token: token, size: bytes.size)
        }
        // Reaching the end (the whole file, or the rest of one resumed) completes a download; a sending that breaks
        // off gives back what it did not send.
        switch try await log(request, client, token: token, bytes: part.counted(sent), complete: part.completes(sent)) {
        case .failure(let refusal): return refusal.page
        case .success(let entry):
            let counted = part.counted
            return try await stream(bytes, named: part.name, range, tag: tag, token: token, context) { [store] written in
                // Every byte handed over may have reached the client: only a shorter sending gives anything back.
                try? await store.endDownload(entry, sent: counted(sent.lowerBound..<(sent.lowerBound + written)))
            } alongside: { [store] in
                await DownloadLease.keep(entry, in: store)
            }
        }
    }

    /// The response sending `range` of `bytes` (through the kernel when they are a file of this machine), stopped
    /// when the link closes; `ended` hears how many bytes went, and `alongside` runs while they go.
    func stream(
        _ bytes: any StoredBytes, named name: String, _ range: ByteRange, tag: String, token: String, sendsNothing: Bool = false,
        _ context: ShareRequestContext, ended: @escaping @Sendable (Int64) async -> Void = { _ in },
        alongside: (@Sendable () async -> Void)? = nil
    ) async throws -> Response {
        let handoff = bytes.file == nil ? nil : try? await context.channel?.pipeline.handler(type: FileRegionHandoff.self).get()
        return try await SharedFile.response(
            named: name, bytes, range, tag: tag, sendsNothing: sendsNothing, handoff: handoff, stillOpen: { try await stillOpens(token) },
            alongside: alongside, ended: ended)
    }

    /// Whether a download in flight may go on: its share is still there, not revoked, not past its expiry. (Its own
    /// count may have spent the link: that closes it to the next download, not to this one.)
    func stillOpens(_ token: String) async throws -> Bool {
        guard let record = try await store.openLink(token: token)?.share else { return false }
        return record.revokedAt == nil && (record.expiresAt.map { $0 > .now() } ?? true)
    }

    /// Why a request for the file is not sent it: the page that says so.
    private struct RefusedDownload: Error {
        let page: Response
    }

    /// Logs a request for the file, `bytes` it asks for (nil for a redirect), `complete` when it reaches the end: its
    /// entry's number in the share's access log.
    private func log(
        _ request: Request, _ client: String, token: String, bytes: Int64?, complete: Bool
    ) async throws -> Result<Int64, RefusedDownload> {
        if let wait = downloads.refusal("address " + client) { return .failure(.init(page: pages.response(.tooManyTries(retryAfter: wait)))) }
        downloads.fail("address " + client)
        let download = ShareDownload(
            at: .now(), address: DownloadVisitor.network(of: client), agent: DownloadVisitor.agent(request.headers[.userAgent]),
            bytes: bytes, complete: complete)
        guard let entry = try await store.countDownload(token: token, download) else {
            // Expired, revoked, gone or spent since the link was read: the next request says which.
            return .failure(.init(page: pages.response(.gone(nil))))
        }
        return .success(entry)
    }

    /// A presigned URL of the file's object, for a CDN in front of the bucket: counted as a whole download when handed
    /// out, since what is fetched from the store with it is not seen here.
    private func handOut(_ url: String, _ request: Request, _ client: String, token: String, size: Int64) async throws -> Response {
        switch try await log(request, client, token: token, bytes: size, complete: true) {
        case .failure(let refusal): return refusal.page
        case .success(let entry):
            try await store.endDownload(entry, sent: size)
            return Response(status: .found, headers: [.location: url, .cacheControl: "no-store", .init("Referrer-Policy")!: "no-referrer"])
        }
    }

    /// The share's thumbnail, for its page: only when the page would show the share.
    @Sendable func thumbnail(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard case .share(_, let token, _) = try await open(request, context, client: client(request, context)),
            let thumbnail = try await store.linkedThumbnail(token: token)
        else {
            return Response(status: .notFound, headers: [.cacheControl: "no-store"])
        }
        // Asked again each time: the page may stop showing it (a link cut off or spent) at any moment.
        return thumbnail.response(to: request, cacheControl: "private, no-cache")
    }

    /// The address the request comes from (a trusted proxy's forwarded one).
    func client(_ request: Request, _ context: ShareRequestContext) -> String {
        addresses.clientAddress(request.headers, peer: context.remoteAddress)
    }

    /// Whether the link of the request's token opens, as its state, its code and the throttle say. The code is
    /// `given` (a form's), else the query's; one remembered for the link (`LinkCodeCookie`) opens it too, and a
    /// stale one is no try.
    func open(_ request: Request, _ context: ShareRequestContext, client: String, given form: String? = nil) async throws -> Opening {
        let token = context.parameters.get("token") ?? ""
        guard LinkToken.isPlausible(token), let opened = try await store.openLink(token: token) else {
            return .refused(gate.unknownToken(from: client))
        }
        let record = opened.share
        if let state = record.state, state != .active {
            if state == .expired, expiries.isNew(record) { try await store.noteExpired(token: token, at: .now()) }
            return .refused(.gone(record))
        }
        switch try gate.check(record.code, token: token, request, client: client, given: form) {
        case .passes(let given): return .share(opened, token: token, code: given)
        case .refused(let content): return .refused(content)
        }
    }
}
