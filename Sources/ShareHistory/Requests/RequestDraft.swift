import ShareKit

/// A file request to make, every field checked (the server: `RequestFields`).
public struct RequestDraft: Equatable, Sendable {
    public var title: String
    public var folder: String
    public var maxFiles: Int64?
    public var maxBytes: Int64?
    public var expiresAt: Timestamp?
    public var code: String?

    public init(title: String, folder: String, maxFiles: Int64?, maxBytes: Int64?, expiresAt: Timestamp?, code: String?) {
        self.title = title
        self.folder = folder
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        self.expiresAt = expiresAt
        self.code = code
    }
}

/// A change of a file request: each nil leaves its field as it is, `.some(nil)` clears it; `closed` true stops it
/// taking files, false opens it again.
public struct RequestChange: Equatable, Sendable {
    public var title: String?
    public var folder: String?
    public var maxFiles: Int64??
    public var maxBytes: Int64??
    public var expiresAt: Timestamp??
    public var code: String??
    public var closed: Bool?

    public init(
        title: String? = nil, folder: String? = nil, maxFiles: Int64?? = nil, maxBytes: Int64?? = nil, expiresAt: Timestamp?? = nil,
        code: String?? = nil, closed: Bool? = nil
    ) {
        self.title = title
        self.folder = folder
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        self.expiresAt = expiresAt
        self.code = code
        self.closed = closed
    }

    public var isEmpty: Bool {
        title == nil && folder == nil && maxFiles == nil && maxBytes == nil && expiresAt == nil && code == nil && closed == nil
    }
}
