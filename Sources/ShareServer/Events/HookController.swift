import Hummingbird
import ShareHistory
import ShareHooks
import ShareKit

/// `/hooks`: the webhooks of the caller's history (an admin's `?user=`): made with a secret shown once, listed,
/// changed, deleted, given a new secret (the old one signs for a day more), and each one's deliveries, newest first,
/// any of which can be sent again.
struct HookController {
    let histories: Histories
    let settings: HooksSettings
    let pathPrefix: String

    /// How long a replaced secret still signs, so that receivers can take the new one in their time.
    static let oldSecretSigns = Duration.seconds(86_400)

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.post("hooks", use: add)
        routes.get("hooks") { request, context in try JSONBody.response(try await history(request, context).hooks()) }
        routes.get("hooks/:hook") { request, context in
            try JSONBody.response(try await history(request, context).hook(id: Self.hookID(context)))
        }
        routes.patch("hooks/:hook", use: change)
        routes.delete("hooks/:hook") { request, context in
            let id = try Self.hookID(context)
            try await history(request, context).deleteHook(id: id)
            context.logger.info("webhook deleted", metadata: ["hook": "\(id)"])
            return Response(status: .noContent)
        }
        routes.post("hooks/:hook/secret") { request, context in
            let hook = try await history(request, context).replaceHookSecret(
                id: Self.hookID(context), with: HookSecret.make(), oldSigns: Timestamp.now().adding(Self.oldSecretSigns))
            return try JSONBody.response(hook)
        }
        routes.get("hooks/:hook/deliveries", use: deliveries)
        routes.post("hooks/:hook/deliveries/:delivery/retry") { request, context in
            guard let delivery = context.parameters.get("delivery").flatMap(Int64.init), delivery > 0 else {
                throw ShareError.deliveryNotFound(id: 0)
            }
            try await history(request, context).resendDelivery(hook: Self.hookID(context), delivery: delivery)
            return Response(status: .accepted)
        }
        routes.rejectMethods(on: "hooks", except: [.get, .post])
        routes.rejectMethods(on: "hooks/:hook", except: [.get, .patch, .delete])
        routes.rejectMethods(on: "hooks/:hook/secret", except: [.post])
        routes.rejectMethods(on: "hooks/:hook/deliveries", except: [.get])
        routes.rejectMethods(on: "hooks/:hook/deliveries/:delivery/retry", except: [.post])
        return routes
    }

    @Sendable func add(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let history = try history(request, context)
        let body = try await JSONBody.decode(HookBody.self, from: request, maxBytes: 16_384)
        let hook = try await history.addHook(
            try await body.draft(allowPrivate: settings.allowPrivateAddresses), limit: settings.maxPerUser, now: .now())
        context.logger.info("webhook added", metadata: ["hook": "\(hook.id)"])
        return try JSONBody.response(hook, status: .created, headers: [.location: "\(pathPrefix)/hooks/\(hook.id)"])
    }

    @Sendable func change(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let history = try history(request, context)
        let id = try Self.hookID(context)
        _ = try await history.hook(id: id)
        let body = try await JSONBody.decode(HookBody.self, from: request, maxBytes: 16_384)
        return try JSONBody.response(try await history.changeHook(id: id, try await body.change(allowPrivate: settings.allowPrivateAddresses)))
    }

    /// A hook's deliveries, newest first, paged like a record's logs (`limit`, `cursor`, `Link`).
    @Sendable func deliveries(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let id = try Self.hookID(context)
        let paging = try EventPaging(query: request.uri.query)
        let choice = try histories.choose(request, context)
        try context.requireSignedIn()
        let page = try await choice.history.hookDeliveries(id: id, before: paging.after, limit: paging.limit)
        var headers: HTTPFields = [:]
        if let next = page.next {
            let user = choice.named.map { "&" + FormEncoding.encode([("user", $0)]) } ?? ""
            headers[.init("Link")!] =
                "<\(pathPrefix)/hooks/\(id)/deliveries?\(FormEncoding.encode(paging.parameters(continuingAfter: next)))\(user)>; rel=\"next\""
        }
        return try JSONBody.response(page.deliveries, headers: headers)
    }

    /// The caller's history, or an admin's `?user=`; hooks are for someone signed in, never for a public reader.
    private func history(_ request: Request, _ context: ShareRequestContext) throws -> any HistoryStore {
        try context.requireSignedIn()
        return try histories.choose(request, context).history
    }

    /// The `{hook}` path segment; one no hook could have is simply not found.
    private static func hookID(_ context: ShareRequestContext) throws -> String {
        let id = context.parameters.get("hook") ?? ""
        let isIDByte = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(isIDByte) else {
            throw ShareError.hookNotFound(id: String(id.prefix(64)))
        }
        return id
    }
}
