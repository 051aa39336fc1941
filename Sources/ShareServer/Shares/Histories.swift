import Hummingbird
import ShareHistory
import ShareKit

/// Whose history a request reads and changes: the one history everyone shares, or, under per-user histories,
/// the user's own. An admin's `?user=NAME` names another user's; the events of such a change name both.
struct Histories: Sendable {
    let store: any ShareStore
    let auth: AuthSettings
    /// Who may act on another user's history, and on every history.
    let admins: AdminPolicy
    /// The users who can sign in, when the configuration lists them all (tokens only); nil when a trusted proxy or a
    /// unix socket's peer may name any user.
    let knownUsers: Set<String>?

    init(store: any ShareStore, auth: AuthSettings, knownUsers: Set<String>? = nil) {
        self.store = store
        self.auth = auth
        admins = AdminPolicy(admins: Set(auth.admins))
        self.knownUsers = knownUsers
    }

    /// The history a request acts on.
    struct Choice: Sendable {
        let history: any HistoryStore
        /// Whom the events of a change name: the user, and for whom an admin acted (`alice for bob`).
        let by: String
        /// The user an admin named with `?user=`, which every link to more of the same history carries.
        let named: String?
    }

    func choose(_ request: Request, _ context: ShareRequestContext) throws -> Choice {
        if let chosen = context.chosenHistory { return chosen }
        let user = context.changedBy
        let named = try Self.namedUser(request)
        switch auth.histories {
        case .shared:
            guard named == nil else {
                throw ShareError.invalidParameter("user", "names whose history to act on, but histories are shared: there is only one")
            }
            // Someone reading a public history without signing in is not its owner: codes stay hidden.
            return choice(of: "", quota: auth.quotaBytes, by: user, named: nil, showsCodes: context.user != nil)
        case .perUser:
            guard context.user != nil else { throw Problem.unauthorized }
            guard let named, named != user else { return choice(of: user, quota: auth.quota(of: user), by: user, named: nil) }
            try admins.require(context, onlyAdminsMay: "act on another user's history (parameter 'user')")
            // A history for a name nobody can sign in as would be one nobody could ever see.
            guard knownUsers?.contains(named) ?? true else {
                throw Problem(.notFound, "no user '\(named)' can sign in (parameter 'user'): users are those of [auth.users] and the token file")
            }
            return choice(of: named, quota: auth.quota(of: named), by: "\(user) for \(named)", named: named)
        }
    }

    /// The history of `owner`, under its quota, as someone who is not its owner writes into it (a file request's
    /// sender): codes stay hidden, and the events name `by`.
    func choice(of owner: String, by: String) -> Choice {
        choice(of: owner, quota: auth.quota(of: owner), by: by, named: nil, showsCodes: false)
    }

    private func choice(of owner: String, quota: Int64?, by: String, named: String?, showsCodes: Bool = true) -> Choice {
        var history = store.history(of: owner, quota: quota)
        history.recordForm.showsCodes = showsCodes
        return Choice(history: history, by: by, named: named)
    }

    /// The `user` parameter, checked as a user name.
    private static func namedUser(_ request: Request) throws(ShareError) -> String? {
        guard let name = try FormEncoding.values(request.uri.query, known: ["user"])["user"] else { return nil }
        guard Credential.isUserName(name), !Credential.isReserved(name) else {
            throw .invalidParameter("user", "must be a user name: \(Credential.userNameRule), got '\(name)'")
        }
        return name
    }
}
