import Hummingbird
import ShareKit
import ShareStore

/// `GET /me`: who is asking, as the server sees them (`share whoami`, the page's name and *Sign out*).
struct UserController {
    let store: any ShareRepository
    let auth: AuthSettings

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("me") { _, context in
            let me = UserInfo(
                user: context.user, admin: context.user.map(auth.admins.contains) ?? false, histories: "shared",
                usedBytes: try await store.usage().bytes, signedInWith: context.signedInWith?.rawValue,
                signOutUrl: context.signedInWith == .proxy && !auth.signOutURL.isEmpty ? auth.signOutURL : nil)
            return try JSONBody.response(me)
        }
        routes.rejectMethods(on: "me", except: [.get])
        return routes
    }
}
