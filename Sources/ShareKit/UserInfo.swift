import Foundation

/// `GET /me`: who the server takes the caller to be, and what they hold.
public struct UserInfo: Codable, Sendable, Equatable {
    /// The user's name; nil for a public read that signed in as nobody. `local` when no way of signing in is set up.
    public var user: String?
    public var admin: Bool
    /// `shared` (everyone reads and changes one history) or `per-user`.
    public var histories: String
    /// The bytes of the user's live records (of the whole history when it is shared); exact beyond 64 bits.
    public var usedBytes: Decimal
    /// The user's quota, when one is set.
    public var quotaBytes: Int64?
    /// `token`, `proxy` or `unix-peer`; nil when nothing is configured or nobody signed in.
    public var signedInWith: String?
    /// Where the page's *Sign out* goes under proxy sign-in, when set.
    public var signOutUrl: String?

    private enum CodingKeys: String, CodingKey {
        case user, admin, histories, usedBytes, quotaBytes, signedInWith, signOutUrl
    }

    /// `user` is written as `null` when nobody signed in, never left out: it is what a client reads first.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(admin, forKey: .admin)
        try container.encode(histories, forKey: .histories)
        try container.encode(usedBytes, forKey: .usedBytes)
        try container.encodeIfPresent(quotaBytes, forKey: .quotaBytes)
        try container.encodeIfPresent(signedInWith, forKey: .signedInWith)
        try container.encodeIfPresent(signOutUrl, forKey: .signOutUrl)
    }

    public init(
        user: String?, admin: Bool, histories: String, usedBytes: Decimal, quotaBytes: Int64? = nil, signedInWith: String? = nil,
        signOutUrl: String? = nil
    ) {
        self.user = user
        self.admin = admin
        self.histories = histories
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
        self.signedInWith = signedInWith
        self.signOutUrl = signOutUrl
    }
}
