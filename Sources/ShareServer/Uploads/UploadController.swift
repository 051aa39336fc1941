import Hummingbird
import ShareHistory
import ShareKit

/// `/share/uploads`: files uploaded in tus 1.0, resumable. `POST` makes an upload (and may carry its first bytes),
/// `HEAD` says how many bytes it holds, `PATCH` appends from there, `DELETE` drops it. The last byte makes the share,
/// answered with its record (201 to a `POST`, 200 to a `PATCH`); until then nothing of it is visible.
struct UploadController {
    let histories: Histories
    let pathPrefix: String
    let maxUploadBytes: Int64
    /// The most bytes the files of a share of several may be listed in (`RequestBodyKind.maxManifestBytes`).
    let maxManifestBytes: Int
    let slots: UploadSlots

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.on("share/uploads", method: .options, use: capabilities)
        routes.post("share/uploads", use: create)
        routes.post("share/bundles", use: createBundle)
        routes.head("share/uploads/:upload", use: offset)
        routes.patch("share/uploads/:upload", use: append)
        routes.delete("share/uploads/:upload", use: abandon)
        routes.rejectMethods(on: "share/uploads", except: [.post, .options])
        routes.rejectMethods(on: "share/bundles", except: [.post])
        routes.rejectMethods(on: "share/uploads/:upload", except: [.head, .patch, .delete])
        return routes
    }

    @Sendable func capabilities(_ request: Request, context: ShareRequestContext) async throws -> Response {
        Response(
            status: .noContent,
            headers: [
                .tusResumable: TusProtocol.version, .tusVersion: TusProtocol.version, .tusExtension: TusProtocol.extensions,
                .tusMaxSize: "\(maxUploadBytes)",
            ])
    }

    @Sendable func create(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        if request.headers[.uploadDeferLength] != nil {
            throw ShareError.invalidField("Upload-Defer-Length", "is not supported: send Upload-Length")
        }
        let length = try TusProtocol.bytes(request.headers, .uploadLength)
        guard length <= maxUploadBytes else { throw ShareError.uploadTooLarge(limit: maxUploadBytes) }
        let share = try UploadMetadata.share(request.headers[.uploadMetadata], length: length)
        let firstBytes = length == 0 || request.headers[.contentType] != nil ? request.body : nil
        return try await start(share, request, context, receiving: firstBytes)
    }

    /// `POST /share/bundles`: an upload of several files as one share (JSON: the files, in the order of their bytes;
    /// its name, folder and link), whose bytes then come as any upload's (`PATCH /share/uploads/{id}`), one file's after
    /// the other.
    @Sendable func createBundle(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        let body = try await JSONBody.decode(NewBundleBody.self, from: request, maxBytes: maxManifestBytes)
        let share = try body.newShare()
        guard share.size <= maxUploadBytes else { throw ShareError.uploadTooLarge(limit: maxUploadBytes) }
        // Empty files only: the share is made at once.
        return try await start(share, request, context, receiving: share.size == 0 ? RequestBody(buffer: ByteBuffer()) : nil)
    }

    /// Starts the upload of `share`, with `firstBytes` when they come with it.
    private func start(
        _ share: NewShare, _ request: Request, _ context: ShareRequestContext, receiving firstBytes: RequestBody?
    ) async throws -> Response {
        let status = try await start(share, in: try histories.choose(request, context), for: context.user, context, receiving: firstBytes)
        var headers = TusProtocol.headers(status)
        headers[.location] = "\(pathPrefix)/share/uploads/\(status.id)"
        guard let share = status.share else { return Response(status: .created, headers: headers) }
        return try JSONBody.response(share, status: .created, headers: headers)
    }

    /// Starts the upload of `share` in `choice`'s history for `user`, with `firstBytes` when they come with it.
    func start(
        _ share: NewShare, in choice: Histories.Choice, for user: String?, _ context: ShareRequestContext, receiving firstBytes: RequestBody?
    ) async throws -> UploadStatus {
        let status = try await choice.history.startUpload(share, now: .now())
        context.logger.info("upload started", metadata: ["upload": "\(status.id.prefix(4))", "bytes": "\(share.size)"])
        guard let firstBytes else { return status }
        return try await receive(firstBytes, into: status.id, at: 0, choice, for: user, context)
    }

    @Sendable func offset(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        let choice = try histories.choose(request, context)
        // A finish cut off by a crash is done now: the offset a HEAD gives is always that of an upload or of its share.
        let status = try await choice.history.finishCutOffUpload(id: try Self.id(context), now: .now(), by: choice.by)
        if let share = status.share { context.logger.info("share uploaded", metadata: ["id": "\(share.id)", "bytes": "\(status.length)"]) }
        return Response(status: .ok, headers: TusProtocol.headers(status))
    }

    @Sendable func append(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        guard request.headers[.contentType]?.lowercased() == TusProtocol.mediaType else {
            return try Problem(.unsupportedMediaType, "the body must be declared as \(TusProtocol.mediaType) (Content-Type)")
                .response(from: request, context: context)
        }
        let offset = try TusProtocol.bytes(request.headers, .uploadOffset)
        let status = try await receive(
            request.body, into: try Self.id(context), at: offset, try histories.choose(request, context), for: context.user, context)
        guard let share = status.share else { return Response(status: .noContent, headers: TusProtocol.headers(status)) }
        return try JSONBody.response(share, headers: TusProtocol.headers(status))
    }

    @Sendable func abandon(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try TusProtocol.requireVersion(request.headers)
        try await histories.choose(request, context).history.abandonUpload(id: try Self.id(context))
        return Response(status: .noContent, headers: [.tusResumable: TusProtocol.version])
    }

    /// Appends the request's body, within the bound of uploads receiving at once for `user`.
    func receive(
        _ body: RequestBody, into id: String, at offset: Int64, _ choice: Histories.Choice, for user: String?, _ context: ShareRequestContext
    ) async throws -> UploadStatus {
        guard slots.enter(for: user) else { throw ShareError.uploadsBusy(retryAfterSeconds: UploadSlots.retryAfterSeconds) }
        defer { slots.leave(for: user) }
        let status = try await choice.history.appendToUpload(id: id, at: offset, body, now: .now(), by: choice.by)
        if let share = status.share { context.logger.info("share uploaded", metadata: ["id": "\(share.id)", "bytes": "\(status.length)"]) }
        return status
    }

    static func id(_ context: ShareRequestContext) throws(ShareError) -> String {
        let id = context.parameters.get("upload") ?? ""
        guard LinkToken.isPlausible(id) else { throw .uploadNotFound(id: String(id.prefix(40))) }
        return id
    }
}
