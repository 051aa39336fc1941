/// A link that collects files (`/requests`): anyone with it sends files, each becoming a share in its owner's `folder`,
/// until it is closed, expires or has received `maxFiles`.
public struct FileRequest: Codable, Sendable, Equatable {
    /// Whether a request takes files now.
    public enum State: String, Codable, Sendable {
        case open, full, expired, closed
    }

    public var id: String
    public var title: String
    public var folder: String
    /// The most files it takes; nil: no limit.
    public var maxFiles: Int64?
    /// The largest file it takes; nil: the server's `max_upload_bytes`.
    public var maxBytes: Int64?
    public var expiresAt: Timestamp?
    /// The code a sender gives with the link; shown to its owner only.
    public var code: String?
    public var createdAt: Timestamp
    public var closedAt: Timestamp?
    /// The files it has received.
    public var received: Int64
    public var state: State
    /// `{base}/r/{token}`: the server sets it from `token`.
    public var link: String?
    /// The link's secret, which only `link` shows.
    public var token: String?

    private enum CodingKeys: String, CodingKey {
        case id, title, folder, maxFiles, maxBytes, expiresAt, code, createdAt, closedAt, received, state, link
    }

    public init(
        id: String, title: String, folder: String, maxFiles: Int64?, maxBytes: Int64?, expiresAt: Timestamp?, code: String?,
        createdAt: Timestamp, closedAt: Timestamp?, received: Int64, token: String, at now: Timestamp
    ) {
        self.id = id
        self.title = title
        self.folder = folder
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        self.expiresAt = expiresAt
        self.code = code
        self.createdAt = createdAt
        self.closedAt = closedAt
        self.received = received
        self.token = token
        state =
            if closedAt != nil { .closed } else if let expiresAt, expiresAt <= now { .expired } else if let maxFiles, received >= maxFiles {
                .full
            } else { .open }
    }

    /// The `source` of a share that arrived through request `id`.
    public static func source(id: String) -> String { "request:\(id)" }

    /// The most characters a title has.
    public static let maxTitleCharacters = 120
    /// The most files one request may ask for.
    public static let maxFilesLimit: Int64 = 10_000
    /// The most files one request receives at once: each holds a place, a part of its owner's quota and one of the
    /// owner's uploads in progress until it finishes or is dropped.
    public static let maxInProgress = 10
}
