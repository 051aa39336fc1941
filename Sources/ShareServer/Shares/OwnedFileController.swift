import Hummingbird
import ShareHistory
import ShareKit

/// `GET|HEAD /share/{id}/file`: a share's file (of several, their ZIP; one of them: `/share/{id}/files/{n}`) for its owner, signed in like every other read of the history. It is
/// never a recipient's download: nothing is counted or logged, and it opens whatever its link's state (expired,
/// spent, revoked); a trashed share's with `?trashed=true`. Ranges and tags as at the link.
///
/// `GET /share/{id}/preview`: the picture its link's page previews (a picture's, a PDF's first page), for the owner's
/// page.
struct OwnedFileController {
    let histories: Histories
    /// The pictures links' pages preview, and the largest file one is made from (`[server] max_picture_bytes`).
    let previews: PreviewPictures
    let pictureBytes: Int
    /// The ZIPs of shares of several files.
    let bundles: BundleArchives

    var endpoints: RouteCollection<ShareRequestContext> {
        RouteCollection(context: ShareRequestContext.self)
            .get("share/:id/file", use: get)
            .get("share/:id/files/:n", use: getOne)
            .get("share/:id/preview", use: preview)
    }

    @Sendable func preview(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let (id, record, bytes) = try await file(request, context)
        guard record.files == nil, let kind = PreviewKind(name: record.name, size: bytes.size, pictureBytes: pictureBytes, limited: false),
            kind == .picture || kind == .firstPage, let picture = try await previews.picture(of: bytes, as: kind)
        else {
            // A problem of its own rather than a new ShareError case: adding one made the test binary crash (a
            // miscompile of the enum's layout with Swift 6.3; a case fewer, it passes).
            let problem = ProblemDetails(
                status: 404, title: "Not Found",
                detail: "the share with id '\(id)' has no preview: its file is not a picture or a PDF that can be read, or is too large")
            return Response(
                status: .notFound, headers: [.contentType: ProblemDetails.mediaType],
                body: .init(byteBuffer: ByteBuffer(bytes: try WireJSON.encoder().encode(problem))))
        }
        // Made from bytes that never change: a day's caching spares the page making the request again.
        return PreviewPictures.response(picture, to: request, tag: "\"preview-\(bytes.hash)\"", cacheControl: "private, max-age=86400")
    }

    @Sendable func get(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try await send(.whole, request, context)
    }

    @Sendable func getOne(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard let part = DownloadPart(fileNumber: context.parameters.get("n")) else { throw ShareError.noFile(id: try ShareController.id(context)) }
        return try await send(part, request, context)
    }

    private func send(_ asked: DownloadPart, _ request: Request, _ context: ShareRequestContext) async throws -> Response {
        let (id, record, bytes) = try await file(request, context)
        guard let part = try await bundles.part(asked, of: record, bytes) else { throw ShareError.noFile(id: id) }
        // The owner holds the bytes already: their hash gives nothing away here.
        let tag = "\"\(part.bytes.hash)\""
        let range = SharedFile.range(request, size: part.bytes.size, tag: tag)
        if let unchanged = SharedFile.notModified(request, named: part.name, range, tag: tag) { return unchanged }
        return try await SharedFile.response(named: part.name, part.bytes, range, tag: tag, sendsNothing: request.method == .head)
    }

    /// The request's share (its id as asked, its record) and its bytes; 404 naming the id when it holds none here.
    private func file(_ request: Request, _ context: ShareRequestContext) async throws -> (String, ShareRecord, any StoredBytes) {
        let id = try ShareController.id(context)
        let flags = try RecordFlags(request)
        let history = try histories.choose(request, context).history
        let record = try await history.share(id: id, includeTrashed: flags.trashed)
        guard let bytes = try await history.storedBytes(id: id, includeTrashed: flags.trashed) else { throw ShareError.noFile(id: id) }
        return (id, record, bytes)
    }
}
