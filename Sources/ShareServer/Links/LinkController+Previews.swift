import HTTPTypes
import Hummingbird
import ShareHistory
import ShareKit

/// What a link's page shows of its file before it is downloaded (`PreviewKind`): never a download, never counted,
/// and only when the page itself would show the share (its code given, its link open). Nothing of the file runs on
/// the service's origin: a picture is one made here, a text is escaped into the page, and a player's source is sent
/// inline to a player alone (`Sec-Fetch-Dest`), to anything else as the download it is.
extension LinkController {
    /// What the page of `opened` previews: only bytes the service holds, of one file (a share of several lists them).
    func previewKind(_ opened: OpenedLink) -> PreviewKind? {
        guard let bytes = opened.bytes, opened.share.files == nil else { return nil }
        return PreviewKind(name: opened.share.name, size: bytes.size, pictureBytes: pictureBytes, limited: opened.share.maxDownloads != nil)
    }

    /// `GET /s/{token}/preview`: a picture's preview, or a PDF's first page, as WebP; 404 when there is none.
    @Sendable func preview(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard case .share(let opened, let token, _) = try await open(request, context, client: client(request, context)),
            let kind = previewKind(opened), kind == .picture || kind == .firstPage, let bytes = opened.bytes
        else {
            return Response(status: .notFound, headers: [.cacheControl: "no-store"])
        }
        guard let picture = try await previews.picture(of: bytes, as: kind) else {
            return Response(status: .notFound, headers: [.cacheControl: "no-store"])
        }
        // Asked again each time: the page may stop showing it (a link cut off or spent) at any moment.
        return PreviewPictures.response(picture, to: request, tag: SharedFile.tag(token: "preview " + token), cacheControl: "private, no-cache")
    }

    /// `GET /s/{token}/media`: the file for the page's player, inline with its media type, ranges and all, not counted;
    /// asked for by anything but a player (or for a share without a player), it is `/file`: an attachment, counted.
    @Sendable func media(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let destination = request.headers[HTTPField.Name("Sec-Fetch-Dest")!]
        guard destination == "video" || destination == "audio",
            case .share(let opened, let token, _) = try await open(request, context, client: client(request, context)),
            let type = previewKind(opened)?.mediaType, let bytes = opened.bytes
        else {
            return try await file(request, context: context)
        }
        let tag = SharedFile.tag(token: token)
        let range = SharedFile.range(request, size: bytes.size, tag: tag)
        var response: Response
        if let unchanged = SharedFile.notModified(request, named: opened.share.name, range, tag: tag) {
            response = unchanged
        } else {
            response = try await stream(
                bytes, named: opened.share.name, range, tag: tag, token: token, sendsNothing: request.method == .head, context)
        }
        response.headers[.contentType] = type
        response.headers[.contentDisposition] = "inline"
        return response
    }

    /// The first `PreviewKind.textBytes` of a text, as the page shows it, and whether there is more; nil for a file
    /// holding a NUL byte, which is no text.
    func textPreview(_ bytes: any StoredBytes) async throws -> RecipientPage.Text? {
        let length = min(bytes.size, Int64(PreviewKind.textBytes))
        var read: [UInt8] = []
        read.reserveCapacity(Int(length))
        try await bytes.send(0..<length) { read.append(contentsOf: $0.readableBytesView) }
        guard !read.contains(0) else { return nil }
        let cut = length < bytes.size
        var text = String(decoding: read, as: UTF8.self)
        // A character the limit cut in two is left out, not shown broken.
        if cut, text.hasSuffix("\u{FFFD}") { text.removeLast() }
        return RecipientPage.Text(text: text, cut: cut)
    }
}
