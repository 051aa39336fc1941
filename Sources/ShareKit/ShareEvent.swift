/// One change in a record's history, as `GET /share/{id}/events` lists them, oldest first.
public struct ShareEvent: Codable, Hashable, Sendable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case created, uploaded, imported, renamed, moved, trashed, restored, revoked, expired, downloaded, received
        case expiryChanged = "expiry-changed"
    }

    public var at: Timestamp
    public var action: Action
    /// The name or folder before a rename or a move.
    public var from: String?
    /// The name or folder after it.
    public var to: String?
    /// The label of the token that made the change (`local` when no tokens are configured).
    public var by: String
    /// For `downloaded`: the count the download brought the share to.
    public var downloads: Int64?

    public init(at: Timestamp, action: Action, from: String? = nil, to: String? = nil, by: String, downloads: Int64? = nil) {
        self.at = at
        self.action = action
        self.from = from
        self.to = to
        self.by = by
        self.downloads = downloads
    }
}
