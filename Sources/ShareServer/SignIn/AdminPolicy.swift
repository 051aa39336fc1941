import Hummingbird
import HummingbirdAuth

/// Being an admin (`[auth] admins`): who may act on another user's history, list the users, assign records, export
/// every history, and read the metrics under per-user histories.
struct AdminPolicy: AuthorizationPolicy {
    let admins: Set<String>

    func isAuthorized(identity: SignedInUser, request: Request) async throws -> Bool {
        isAdmin(identity)
    }

    func isAdmin(_ identity: SignedInUser?) -> Bool {
        identity.map { admins.contains($0.name) } ?? false
    }

    /// Goes on when the request's user is an admin; else a 403 saying what only admins may do.
    func require(_ context: ShareRequestContext, onlyAdminsMay action: String) throws {
        guard isAdmin(context.identity) else { throw Problem(.forbidden, "only admins may \(action)") }
    }
}
