import ShareKit

/// What `share add` gives a new share's link: where a share made elsewhere lives, when the link stops opening,
/// after how many downloads, its code, and what the recipient's page says: who sent it and a message.
public struct NewLinkFields: Sendable {
    public enum Code: Sendable {
        case none
        /// One the server draws.
        case drawn
        case chosen(String)
    }

    public var source: String?
    public var expiresAt: Timestamp?
    public var maxDownloads: Int64?
    public var code = Code.none
    public var sender: String?
    public var message: String?

    public init(
        source: String? = nil, expiresAt: Timestamp? = nil, maxDownloads: Int64? = nil, code: Code = .none, sender: String? = nil,
        message: String? = nil
    ) {
        self.source = source
        self.expiresAt = expiresAt
        self.maxDownloads = maxDownloads
        self.code = code
        self.sender = sender
        self.message = message
    }
}
