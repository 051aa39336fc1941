import Foundation
import Hummingbird
import ShareKit
import ShareStore

/// The `/share` endpoints: list, get, create, rename/move, trash or purge, restore.
struct ShareController {
    let database: ShareDatabase
    /// The zone of `date`, `from` and `to` when a request names none.
    let defaultZone: ZonedCalendar
    /// `""` at the root, `/files` under a sub-path: prefixed to the `Location` and `Link` URLs the server writes.
    let pathPrefix: String
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<ShareRequestContext>) {
        group.get("share", use: list)
        group.post("share", use: create)
        group.get("share/stats", use: stats)
        group.get("share/:id", use: get)
        group.patch("share/:id", use: update)
        group.delete("share/:id", use: delete)
        group.post("share/:id/restore", use: restore)
        group.rejectMethods(on: "share", except: [.get, .post])
        group.rejectMethods(on: "share/:id", except: [.get, .patch, .delete])
        group.rejectMethods(on: "share/:id/restore", except: [.post])
        group.rejectMethods(on: "share/stats", except: [.get])
    }

    /// Request body of `POST /share`; every field optional here so that a missing one is reported by name.
    struct CreateBody: Decodable {
        var id: String?
        var name: String?
        var folder: String?
        var createdAt: String?
        var size: WholeNumber?
    }

    /// Request body of `PATCH /share/{id}`.
    struct UpdateBody: Decodable {
        var name: String?
        var folder: String?
    }

    @Sendable func list(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let parameters = try QueryString.parse(request.uri.query)
        let page = try await database.listShares(try ShareQuery(parameters: parameters, defaultZone: defaultZone))
        var headers: HTTPFields = [:]
        if let next = page.next {
            // The next page keeps every filter of this one; only the cursor changes.
            let kept = parameters.filter { $0.name != "cursor" } + [(name: "cursor", value: next.encoded)]
            headers[.init("Link")!] = "<\(pathPrefix)/share?\(FormEncoding.encode(kept))>; rel=\"next\""
        }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: page.body)))
    }

    /// Totals for the "storage used" bar; takes the list filters (paging and sorting parameters change nothing).
    @Sendable func stats(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let query = try ShareQuery(parameters: try QueryString.parse(request.uri.query), defaultZone: defaultZone)
        return try JSONBody.response(try await database.stats(query))
    }

    @Sendable func get(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let includeTrashed = try Self.flag("trashed", request)
        return try JSONBody.response(try await database.share(id: try Self.id(context), includeTrashed: includeTrashed))
    }

    @Sendable func create(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(CreateBody.self, from: request, maxBytes: maxBodyBytes)
        let new = try NewShare(id: body.id, name: body.name, folder: body.folder, createdAt: body.createdAt, size: body.size?.value)
        let record = try await database.createShare(new)
        context.logger.info("share created", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record, status: .created, headers: [.location: "\(pathPrefix)/share/\(record.id)"])
    }

    @Sendable func update(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let body = try await JSONBody.decode(UpdateBody.self, from: request, maxBytes: maxBodyBytes)
        let patch = try SharePatch(name: body.name, folder: body.folder)
        let record = try await database.updateShare(id: id, patch, includeTrashed: try Self.flag("trashed", request))
        context.logger.info("share updated", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record)
    }

    /// Moves to the trash; `?purge=true` deletes for good, trashed or not.
    @Sendable func delete(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let (purge, includeTrashed) = (try Self.flag("purge", request), try Self.flag("trashed", request))
        if purge {
            try await database.purgeShare(id: id)
            context.logger.info("share purged", metadata: ["id": "\(id)"])
        } else {
            try await database.trashShare(id: id, includeTrashed: includeTrashed)
            context.logger.info("share trashed", metadata: ["id": "\(id)"])
        }
        return Response(status: .noContent)
    }

    @Sendable func restore(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let record = try await database.restoreShare(id: try Self.id(context))
        context.logger.info("share restored", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record)
    }

    /// The `{id}` path segment; one that no record could carry is simply not found.
    private static func id(_ context: ShareRequestContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard ShareID.isPlausible(id) else { throw ShareError.notFound(id: id) }
        return id
    }

    /// A `true`/`false` query parameter, false when absent.
    private static func flag(_ name: String, _ request: Request) throws -> Bool {
        guard let text = try QueryString.parse(request.uri.query).last(where: { $0.name == name })?.value else { return false }
        return try BooleanParameter.parse(text, parameter: name)
    }
}
