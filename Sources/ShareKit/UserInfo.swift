import Foundation

/// `GET /me`: who the server takes the caller to be, and what they hold.
public struct UserInfo: Codable, Sendable, Equatable {
    /// The user's name; nil for a public read that signed in as nobody. `local` when no way of signing in is set up.
    public var user: String?
    public var admin: Bool
    /// `shared` (everyone reads and changes one history) or `per-user`.
    public var histories: String
    /// What the quota counts (of the whole history when it is shared): the live records' bytes, the files the trash
    /// still holds and what uploads in progress reserve; exact beyond 64 bits.
    public var usedBytes: Decimal
    /// The user's quota, when one is set.
    public var quotaBytes: Int64?
    /// The bytes of the live shares whose files the service holds (a part of `usedBytes`).
    public var filesBytes: Int64?
    /// The bytes of the files in the trash, held until it is emptied (a part of `usedBytes`); absent when none.
    public var trashedFilesBytes: Int64?
    /// The bytes uploads in progress have reserved (a part of `usedBytes`); absent when none.
    public var uploadingBytes: Int64?
    /// `token`, `proxy` or `unix-peer`; nil when nothing is configured or nobody signed in.
    public var signedInWith: String?
    /// Where the page's *Sign out* goes under proxy sign-in, when set.
    public var signOutUrl: String?
    /// The service's link for a share, `{id}` standing for its id (`[server] share_url`), when set.
    public var shareUrl: String?
    /// After how many days the trash is emptied of a record (`[database] trash_days`); 0: never.
    public var trashDays: Int?
    /// The history's Atom feed (`/feed/{key}.atom`), for whoever signed in.
    public var feedUrl: String?
    /// How many of the history's webhooks stopped sending (a 410, or every retry failed); absent when none.
    public var disabledHooks: Int?

    private enum CodingKeys: String, CodingKey {
        case user, admin, histories, usedBytes, quotaBytes, filesBytes, trashedFilesBytes, uploadingBytes, signedInWith, signOutUrl, shareUrl
        case trashDays, feedUrl, disabledHooks
    }

    /// `user` is written as `null` when nobody signed in, never left out: it is what a client reads first.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(admin, forKey: .admin)
        try container.encode(histories, forKey: .histories)
        try container.encode(usedBytes, forKey: .usedBytes)
        try container.encodeIfPresent(quotaBytes, forKey: .quotaBytes)
        try container.encodeIfPresent(filesBytes, forKey: .filesBytes)
        try container.encodeIfPresent(trashedFilesBytes, forKey: .trashedFilesBytes)
        try container.encodeIfPresent(uploadingBytes, forKey: .uploadingBytes)
        try container.encodeIfPresent(signedInWith, forKey: .signedInWith)
        try container.encodeIfPresent(signOutUrl, forKey: .signOutUrl)
        try container.encodeIfPresent(shareUrl, forKey: .shareUrl)
        try container.encodeIfPresent(trashDays, forKey: .trashDays)
        try container.encodeIfPresent(feedUrl, forKey: .feedUrl)
        try container.encodeIfPresent(disabledHooks, forKey: .disabledHooks)
    }

    public init(
        user: String?, admin: Bool, histories: String, usedBytes: Decimal, quotaBytes: Int64? = nil, filesBytes: Int64? = nil,
        signedInWith: String? = nil,
        signOutUrl: String? = nil, shareUrl: String? = nil, trashDays: Int? = nil
    ) {
        self.user = user
        self.admin = admin
        self.histories = histories
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
        self.filesBytes = filesBytes
        self.signedInWith = signedInWith
        self.signOutUrl = signOutUrl
        self.shareUrl = shareUrl
        self.trashDays = trashDays
    }

    /// The link of the share `id`, when the service has a link pattern.
    public func link(to id: String) -> String? {
        shareUrl.map { $0.replacingOccurrences(of: "{id}", with: id) }
    }
}
