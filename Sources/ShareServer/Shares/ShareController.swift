import Foundation
import Hummingbird
import ShareHistory
import ShareKit

/// The `/share` endpoints: list, get, create, rename/move, trash or purge, restore, statistics, folders.
struct ShareController {
    let histories: Histories
    /// The zone of `date`, `from` and `to` when a request names none.
    let defaultZone: ZonedCalendar
    /// `""` at the root, `/files` under a sub-path: prefixed to the `Location` and `Link` URLs the server writes.
    let pathPrefix: String
    /// The largest body a create or an update may have (`[server] max_body_bytes`).
    let maxBodyBytes: Int

    /// The settings a response depends on besides the history, as part of its ETag (FNV-1a of zone and base path).
    var configurationTag: String {
        ContentHash.of("\(defaultZone.zone.identifier)|\(pathPrefix)".utf8, radix: 36)
    }

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        // Before the middleware: a listing and statistics take their tag as they read (`taggedPage`, `taggedStats`).
        routes.get("share", use: list)
        routes.get("share/stats", use: stats)
        routes.add(middleware: ConditionalGETMiddleware(histories: histories, configuration: configurationTag))
        routes.post("share", use: create)
        routes.get("share/folders", use: folders)
        routes.get("share/:id", use: get)
        routes.patch("share/:id", use: update)
        routes.delete("share/:id", use: delete)
        routes.post("share/:id/restore", use: restore)
        routes.get("share/:id/events", use: events)
        routes.get("share/:id/downloads", use: downloads)
        routes.rejectMethods(on: "share", except: [.get, .post])
        // A POST there is the batch's (`BatchController`): the one method `/share/batch` is documented with.
        routes.rejectMethods(on: "share/:id", handled: [.get, .post, .patch, .delete]) { context in
            BatchController.isBatch(context) ? [.post] : [.get, .patch, .delete]
        }
        routes.rejectMethods(on: "share/:id/restore", except: [.post])
        routes.rejectMethods(on: "share/:id/events", except: [.get])
        routes.rejectMethods(on: "share/:id/downloads", except: [.get])
        routes.rejectMethods(on: "share/stats", except: [.get])
        routes.rejectMethods(on: "share/folders", except: [.get])
        return routes
    }

    @Sendable func list(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let listing = try ListingQuery(query: request.uri.query)
        let choice = try histories.choose(request, context)
        let (version, page) = try await choice.history.taggedPage(try ShareQuery(listing, defaultZone: defaultZone), at: .now())
        var headers: HTTPFields = [:]
        if let next = page.next {
            // The next page keeps every filter of this one, and the history; only the cursor changes.
            var following = listing
            following.cursor = next.encoded
            headers[.init("Link")!] = "<\(pathPrefix)/share?\(following.formEncoded)\(Self.userParameter(choice))>; rel=\"next\""
        }
        let response = JSONBody.response(bytes: page.body, headers: headers)
        return ConditionalGETMiddleware.answer(request, response, version: version, owner: choice.history.owner, configuration: configurationTag)
    }

    /// Totals for the "storage used" bar; takes the list filters (paging and sorting parameters change nothing),
    /// and `by`: per day, month or year, or by the period that fits the span when absent.
    @Sendable func stats(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let listing = try ListingQuery(query: request.uri.query)
        let period = try FormEncoding.values(request.uri.query, known: ["by"])["by"].map { value throws(ShareError) in
            guard let period = StatsPeriod(rawValue: value) else {
                throw .invalidParameter("by", "must be day, month, year or none, got '\(value)'")
            }
            return period
        }
        let choice = try histories.choose(request, context)
        let query = try ShareQuery(listing, defaultZone: defaultZone)
        let (version, totals) = try await choice.history.taggedStats(query, by: period, at: .now())
        var stats = totals
        stats.quotaBytes = choice.history.quota
        let response = JSONBody.response(bytes: stats.json())
        return ConditionalGETMiddleware.answer(request, response, version: version, owner: choice.history.owner, configuration: configurationTag)
    }

    /// A folder's subfolders (`parent`, default `/`) with the count and bytes of everything below each.
    @Sendable func folders(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let parent = try FormEncoding.values(request.uri.query, known: ["parent"])["parent"] ?? FolderPath.root
        let folder = try FolderPath.normalize(parent, field: "parent")
        let choice = try histories.choose(request, context)
        return try JSONBody.response(try await choice.history.folders(in: folder))
    }

    @Sendable func get(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let flags = try RecordFlags(request)
        let history = try histories.choose(request, context).history
        return try JSONBody.response(try await history.share(id: try Self.id(context), includeTrashed: flags.trashed))
    }

    @Sendable func create(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(NewShareBody.self, from: request, maxBytes: maxBodyBytes)
        let choice = try histories.choose(request, context)
        let record = try await choice.history.createShare(try body.newShare(), by: choice.by)
        context.logger.info("share created", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record, status: .created, headers: [.location: "\(pathPrefix)/share/\(record.id)"])
    }

    @Sendable func update(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let body = try await JSONBody.decode(SharePatchBody.self, from: request, maxBytes: maxBodyBytes)
        let patch = try body.patch()
        let choice = try histories.choose(request, context)
        let record = try await choice.history.updateShare(id: id, patch, includeTrashed: try RecordFlags(request).trashed, by: choice.by)
        context.logger.info("share updated", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record)
    }

    /// Moves to the trash; `?purge=true` deletes for good, trashed or not.
    @Sendable func delete(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let flags = try RecordFlags(request)
        let choice = try histories.choose(request, context)
        if flags.purge {
            try await choice.history.purgeShare(id: id)
            context.logger.info("share purged", metadata: ["id": "\(id)"])
        } else {
            try await choice.history.trashShare(id: id, includeTrashed: flags.trashed, by: choice.by)
            context.logger.info("share trashed", metadata: ["id": "\(id)"])
        }
        return Response(status: .noContent)
    }

    @Sendable func restore(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let choice = try histories.choose(request, context)
        let record = try await choice.history.restoreShare(id: try Self.id(context), by: choice.by)
        context.logger.info("share restored", metadata: ["id": "\(record.id)"])
        return try JSONBody.response(record)
    }

    /// A record's history, oldest first, paged like listings (`limit`, `cursor`, `Link`); trashed records too.
    @Sendable func events(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try await logPage(request, context, "events") { history, id, paging in
            let page = try await history.events(id: id, after: paging.after, limit: paging.limit)
            return (page.events, page.next)
        }
    }

    /// A share's access log, newest first, paged the same way; trashed records too.
    @Sendable func downloads(_ request: Request, context: ShareRequestContext) async throws -> Response {
        try await logPage(request, context, "downloads") { history, id, paging in
            let page = try await history.downloads(id: id, before: paging.after, limit: paging.limit)
            return (page.downloads, page.next)
        }
    }

    /// A page of one of a record's logs (`/share/{id}/{log}`), with a `Link` to the next when one follows.
    private func logPage<Entry: Encodable>(
        _ request: Request, _ context: ShareRequestContext, _ log: String,
        _ read: (any HistoryStore, String, EventPaging) async throws -> ([Entry], Int64?)
    ) async throws -> Response {
        let id = try Self.id(context)
        let paging = try EventPaging(query: request.uri.query)
        let choice = try histories.choose(request, context)
        let (entries, next) = try await read(choice.history, id, paging)
        var headers: HTTPFields = [:]
        if let next {
            let query = FormEncoding.encode(paging.parameters(continuingAfter: next))
            headers[.init("Link")!] = "<\(pathPrefix)/share/\(id)/\(log)?\(query)\(Self.userParameter(choice))>; rel=\"next\""
        }
        return try JSONBody.response(entries, headers: headers)
    }

    /// `&user=NAME` when an admin named another user's history, for links to more of it.
    private static func userParameter(_ choice: Histories.Choice) -> String {
        choice.named.map { "&" + FormEncoding.encode([("user", $0)]) } ?? ""
    }

    /// The `{id}` path segment; one that no record could carry is simply not found.
    static func id(_ context: ShareRequestContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard ShareID.isPlausible(id) else { throw ShareError.notFound(id: id) }
        return id
    }
}
