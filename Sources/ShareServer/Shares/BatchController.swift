import Hummingbird
import ShareHistory
import ShareKit

/// `POST /share/batch`: moves, trashes, restores or purges many records in one request, by their ids or by a
/// listing's filters: all of them, or none.
///
/// `batch` is no reserved word: a record may have it as its id, which `GET`, `PATCH` and `DELETE /share/batch` reach.
/// So the batch is the `POST` of the record routes' path (the router would not fall back from a path of its own to
/// theirs), and a `POST` to any other record is 405, as before.
struct BatchController {
    let histories: Histories
    /// The zone of a filter's `date`, `from` and `to` when it names none.
    let defaultZone: ZonedCalendar
    let maxBodyBytes: Int

    /// Whether the request's path is `/share/batch`, the record routes' path with `batch` for the id.
    static func isBatch(_ context: ShareRequestContext) -> Bool {
        context.parameters.get("id") == "batch"
    }

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.post("share/:id", use: batch)
        return routes
    }

    @Sendable func batch(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard Self.isBatch(context) else { throw Problem.methodNotAllowed(allowed: [.get, .patch, .delete]) }
        // Logged and counted as the route it is, not as a record's.
        context.coreContext.endpointPath.value = context.endpointPath.map { $0.replacingOccurrences(of: "{id}", with: "batch") }
        let body = try await JSONBody.decode(BatchBody.self, from: request, maxBytes: maxBodyBytes)
        let change = try body.change()
        let targets = try body.targets(defaultZone: defaultZone)
        let choice = try histories.choose(request, context)
        let count = try await choice.history.batch(change, targets, by: choice.by)
        context.logger.info("batch", metadata: ["action": "\(body.action ?? "")", "records": "\(count)"])
        return try JSONBody.response(BatchReport(action: body.action ?? "", count: count))
    }
}

/// The body of `POST /share/batch`: an action, and the ids or the listing's filters (its query string) it acts on.
struct BatchBody: Decodable {
    var action: String?
    var ids: [String]?
    /// A listing's query string (`q=report&type=pdf`): the batch acts on every record it would list.
    var filter: String?
    /// Where a move puts the records.
    var folder: String?

    func change() throws(ShareError) -> BatchChange {
        switch action {
        case "move":
            guard let folder else { throw .invalidField("folder", "is required to move") }
            return .move(folder: try FolderPath.normalize(folder))
        case "trash": return .trash
        case "restore": return .restore
        case "purge": return .purge
        case nil: throw .invalidField("action", "is required: move, trash, restore or purge")
        case let other?: throw .invalidField("action", "must be move, trash, restore or purge, got '\(other)'")
        }
    }

    func targets(defaultZone: ZonedCalendar) throws(ShareError) -> BatchTargets {
        switch (ids, filter) {
        case (let ids?, nil):
            guard !ids.isEmpty else { throw .invalidField("ids", "must name at least one share") }
            guard ids.count <= BatchTargets.maxRecords else {
                throw .invalidField("ids", "may name at most \(BatchTargets.maxRecords) shares: send them in several batches")
            }
            return .ids(ids)
        case (nil, let filter?):
            let listing: ListingQuery
            do {
                listing = try ListingQuery(query: filter)
            } catch {
                throw .invalidField("filter", error.detail)
            }
            guard listing.limit == nil, listing.cursor == nil else {
                throw .invalidField("filter", "acts on every share it matches: it takes no limit or cursor")
            }
            return .matching(try ShareQuery(listing, defaultZone: defaultZone))
        default:
            throw .invalidField("ids", "or 'filter' names the shares, one of the two")
        }
    }
}

/// What a batch did.
struct BatchReport: Encodable {
    let action: String
    let count: Int
}
