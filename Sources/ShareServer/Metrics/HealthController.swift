import Hummingbird
import ShareHistory

/// `/healthz` (the process answers) and `/readyz` (the database is open and fully migrated).
struct HealthController {
    let store: any ShareStore

    struct Status: Encodable {
        var status: String
    }

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("healthz") { _, _ in try JSONBody.response(Status(status: "ok")) }
        routes.get("readyz") { _, _ in
            await store.isReady()
                ? try JSONBody.response(Status(status: "ok"))
                : try JSONBody.response(Status(status: "unavailable"), status: .serviceUnavailable)
        }
        routes.rejectMethods(on: "healthz", except: [.get])
        routes.rejectMethods(on: "readyz", except: [.get])
        return routes
    }
}
