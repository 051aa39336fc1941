import Hummingbird
import ShareHistory
import ShareKit

/// `GET|HEAD /share/{id}/file`: a share's file for its owner, signed in like every other read of the history. It is
/// never a recipient's download: nothing is counted or logged, and it opens whatever its link's state (expired,
/// spent, revoked); a trashed share's with `?trashed=true`. Ranges and tags as at the link.
struct OwnedFileController {
    let histories: Histories

    var endpoints: RouteCollection<ShareRequestContext> {
        RouteCollection(context: ShareRequestContext.self).get("share/:id/file", use: get)
    }

    @Sendable func get(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try ShareController.id(context)
        let flags = try RecordFlags(request)
        let history = try histories.choose(request, context).history
        let record = try await history.share(id: id, includeTrashed: flags.trashed)
        guard let bytes = try await history.storedBytes(id: id, includeTrashed: flags.trashed) else { throw ShareError.noFile(id: id) }
        // The owner holds the bytes already: their hash gives nothing away here.
        let tag = "\"\(bytes.hash)\""
        let range = SharedFile.range(request, size: bytes.size, tag: tag)
        if let unchanged = SharedFile.notModified(request, record, range, tag: tag) { return unchanged }
        return try await SharedFile.response(record, bytes, range, tag: tag, sendsNothing: request.method == .head)
    }
}
