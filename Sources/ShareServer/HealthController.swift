import Hummingbird
import ShareStore

/// `/healthz` (the process answers) and `/readyz` (the database is open and fully migrated).
struct HealthController {
    let database: ShareDatabase

    struct Status: Encodable {
        var status: String
    }

    func addRoutes(to group: RouterGroup<ShareRequestContext>) {
        group.get("healthz") { _, _ in try JSONBody.response(Status(status: "ok")) }
        group.get("readyz") { _, _ in
            await database.isReady()
                ? try JSONBody.response(Status(status: "ok"))
                : try JSONBody.response(Status(status: "unavailable"), status: .serviceUnavailable)
        }
        group.rejectMethods(on: "healthz", except: [.get])
        group.rejectMethods(on: "readyz", except: [.get])
    }
}
