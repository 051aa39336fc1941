import Hummingbird
import HummingbirdAuth
import ShareHistory
import ShareKit

/// `GET /me`: who is asking, as the server sees them (`share whoami`, the page's name, quota and *Sign out*);
/// `GET /users`: for admins, every user with live records, with their count and bytes (`share users`).
struct UserController {
    let histories: Histories
    /// `[server] share_url`: the service's link pattern, which `/me` passes on to the page and `share show`.
    let shareURL: String
    /// `[database] trash_days`, which `/me` passes on for the page's trash to say.
    let trashDays: Int
    let pathPrefix: String

    private func feedURL(_ key: String) -> String {
        "\(pathPrefix)/feed/\(key).atom"
    }

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("me") { request, context in
            let auth = histories.auth
            let choice = try histories.choose(request, context)
            let usage = try await choice.history.quotaUsage()
            var me = UserInfo(
                user: context.user, admin: histories.admins.isAdmin(context.identity), histories: auth.histories.rawValue,
                usedBytes: usage.total, quotaBytes: choice.history.quota,
                filesBytes: try await choice.history.filesBytes(), signedInWith: context.identity?.method?.rawValue,
                signOutUrl: context.identity?.method == .proxy && !auth.signOutURL.isEmpty ? auth.signOutURL : nil,
                shareUrl: shareURL.isEmpty ? nil : shareURL, trashDays: trashDays)
            me.trashedFilesBytes = usage.trashedFiles > 0 ? usage.trashedFiles : nil
            me.uploadingBytes = usage.uploading > 0 ? usage.uploading : nil
            if context.user != nil {
                // A history's first feed key is written: on a full disk `/me` answers without it.
                me.feedUrl = try? await feedURL(choice.history.feedKey(renewing: false))
                let disabled = try await choice.history.hooks().count { !$0.enabled }
                me.disabledHooks = disabled > 0 ? disabled : nil
            }
            return try JSONBody.response(me)
        }
        routes.post("me/feed-key") { request, context in
            try context.requireSignedIn()
            let key = try await histories.choose(request, context).history.feedKey(renewing: true)
            return try JSONBody.response(["feedUrl": feedURL(key)])
        }
        routes.group()
            .add(
                middleware: AuthorizationPolicyMiddleware(
                    histories.admins, deniedError: Problem(.forbidden, "only admins may list the users (auth.admins)"))
            )
            .get("users") { _, _ in try JSONBody.response(try await histories.store.users()) }
        routes.group()
            .add(
                middleware: AuthorizationPolicyMiddleware(
                    histories.admins, deniedError: Problem(.forbidden, "only admins may assign records (auth.admins)"))
            )
            .post("users/:user/assign", use: assign)
        routes.rejectMethods(on: "me", except: [.get])
        routes.rejectMethods(on: "me/feed-key", except: [.post])
        routes.rejectMethods(on: "users", except: [.get])
        routes.rejectMethods(on: "users/:user/assign", except: [.post])
        return routes
    }

    /// `POST /users/{user}/assign`: an admin gives the records that belong to nobody (made while histories were
    /// shared) to `user`, as `shared assign --to USER` does offline.
    @Sendable func assign(_ request: Request, context: ShareRequestContext) async throws -> Response {
        guard histories.auth.histories == .perUser else {
            throw Problem(.conflict, "histories are shared: records with an owner would leave the one history; set histories = \"per-user\" first")
        }
        let user = context.parameters.get("user") ?? ""
        guard Credential.isUserName(user), !Credential.isReserved(user) else {
            throw Problem(.notFound, "'\(user)' cannot be a user: \(Credential.userNameRule)")
        }
        let assigned = try await histories.store.assignUnowned(to: user)
        context.logger.info("records assigned", metadata: ["user": "\(user)", "count": "\(assigned)"])
        return try JSONBody.response(AssignReport(assigned: assigned))
    }

    /// How many records an assignment gave their owner.
    private struct AssignReport: Encodable {
        let assigned: Int
    }
}
