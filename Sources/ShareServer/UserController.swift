import Hummingbird
import ShareKit
import ShareStore

/// `GET /me`: who is asking, as the server sees them (`share whoami`, the page's name, quota and *Sign out*);
/// `GET /users`: for admins, every user with live records, with their count and bytes (`share users`).
struct UserController {
    let histories: Histories

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("me") { request, context in
            let auth = histories.auth
            let choice = try histories.choose(request, context)
            let me = UserInfo(
                user: context.user, admin: isAdmin(context), histories: auth.histories.rawValue,
                usedBytes: try await choice.history.usage().bytes, quotaBytes: choice.quota, signedInWith: context.signedInWith?.rawValue,
                signOutUrl: context.signedInWith == .proxy && !auth.signOutURL.isEmpty ? auth.signOutURL : nil)
            return try JSONBody.response(me)
        }
        routes.get("users") { _, context in
            guard isAdmin(context) else { throw Problem(.forbidden, "only admins may list the users (auth.admins)") }
            return try JSONBody.response(try await histories.store.users())
        }
        routes.rejectMethods(on: "me", except: [.get])
        routes.rejectMethods(on: "users", except: [.get])
        return routes
    }

    private func isAdmin(_ context: ShareRequestContext) -> Bool {
        context.user.map(histories.auth.admins.contains) ?? false
    }
}
