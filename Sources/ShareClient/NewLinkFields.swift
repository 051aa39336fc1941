import ShareKit

/// What `share add` gives a new share's link: where a share made elsewhere lives, when the link stops opening,
/// after how many downloads, and its code.
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

    public init(source: String? = nil, expiresAt: Timestamp? = nil, maxDownloads: Int64? = nil, code: Code = .none) {
        self.source = source
        self.expiresAt = expiresAt
        self.maxDownloads = maxDownloads
        self.code = code
    }
}
