import Hummingbird
import NIOCore
import NIOPosix
import ShareHistory
import ShareKit
import ShareThumbnails

/// `/share/{id}/thumbnail`: a record's thumbnail, made here from a picture sent for it (`PUT`), served (`GET`) and
/// removed (`DELETE`). The record's own rules apply: another history's record is not found, a trashed one only
/// with `?trashed=true`.
struct ThumbnailController {
    let histories: Histories
    let maker: ThumbnailMaker
    /// The largest picture a `PUT` may send (`[server] max_picture_bytes`).
    let maxPictureBytes: Int
    /// The memory the pictures being decoded now may hold between them.
    let budget: DecodingBudget
    /// How long a picture waits for room in the budget before it is asked to come back later.
    static let budgetWait = Duration.seconds(10)

    /// A thumbnail changes only when one is sent again; a day's caching spares the page re-reading what it shows.
    static let cacheControl = "private, max-age=86400"

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.put("share/:id/thumbnail", use: put)
        routes.get("share/:id/thumbnail", use: get)
        routes.delete("share/:id/thumbnail", use: delete)
        routes.rejectMethods(on: "share/:id/thumbnail", except: [.get, .put, .delete])
        return routes
    }

    @Sendable func put(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try ShareController.id(context)
        let choice = try histories.choose(request, context)
        let includeTrashed = try RecordFlags(request).trashed
        // The record is looked up first, so that a picture for a record one may not see is never decoded.
        _ = try await choice.history.share(id: id, includeTrashed: includeTrashed)
        // Received whole before it takes any of the budget: a picture still arriving holds no one else up. Its header
        // is read here, by hand; libvips sees nothing of it before its memory is reserved.
        let inspected = try maker.inspect(Array(buffer: try await request.body.collect(upTo: maxPictureBytes)))
        guard inspected.decodingBytes <= budget.capacity else {
            throw ShareError.unreadablePicture(
                "is \(inspected.width) × \(inspected.height) pixels of \(inspected.format.rawValue), whose decoding takes "
                    + "\(inspected.decodingBytes / 1_048_576) MiB, more than the \(budget.capacity / 1_048_576) MiB thumbnails are made in")
        }
        guard await budget.reserve(inspected.decodingBytes, waitingAtMost: Self.budgetWait) else {
            throw ShareError.picturesBusy(retryAfterSeconds: 2)
        }
        defer { budget.release(inspected.decodingBytes) }
        let maker = maker
        let image = try await NIOThreadPool.singleton.runIfActive { try maker.thumbnail(of: inspected) }
        let record = try await choice.history.setThumbnail(id: id, Thumbnail(image: image), includeTrashed: includeTrashed)
        context.logger.info("thumbnail stored", metadata: ["id": "\(record.id)", "bytes": "\(image.count)"])
        return try JSONBody.response(record)
    }

    @Sendable func get(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try ShareController.id(context)
        let history = try histories.choose(request, context).history
        let thumbnail = try await history.thumbnail(id: id, includeTrashed: try RecordFlags(request).trashed)
        return thumbnail.response(to: request, cacheControl: Self.cacheControl)
    }

    @Sendable func delete(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try ShareController.id(context)
        let history = try histories.choose(request, context).history
        try await history.removeThumbnail(id: id, includeTrashed: try RecordFlags(request).trashed)
        context.logger.info("thumbnail removed", metadata: ["id": "\(id)"])
        return Response(status: .noContent)
    }
}
