import ShareKit

/// What a new share's link is given: where it leads when the share was made on another service, when it stops
/// opening, and the code a recipient gives with it, checked by whoever read them (the server: `LinkFields`).
public struct NewLink: Equatable, Sendable {
    public var source: String?
    public var expiresAt: Timestamp?
    public var maxDownloads: Int64?
    public var code: String?
    /// Who the recipient's page says sent it, and what it says with it.
    public var sender: String?
    public var message: String?
    /// Completed downloads so far: an import's record keeps its count.
    public var downloads: Int64 = 0
    /// When it was cut off: an import's revoked record stays revoked.
    public var revokedAt: Timestamp?
    /// Whether the service holds the share's bytes (an upload's share).
    public var stored = false

    public init(
        source: String? = nil, expiresAt: Timestamp? = nil, maxDownloads: Int64? = nil, code: String? = nil, sender: String? = nil,
        message: String? = nil
    ) {
        self.source = source
        self.expiresAt = expiresAt
        self.maxDownloads = maxDownloads
        self.code = code
        self.sender = sender
        self.message = message
    }

    /// Whether this service opens the share: it leads somewhere.
    var opens: Bool { source != nil || stored }

    /// Gives `record` this link: its limits, and a newly drawn token when the share opens.
    func give(to record: inout ShareRecord) {
        record.source = source
        record.expiresAt = expiresAt
        record.maxDownloads = maxDownloads
        record.code = code
        record.sender = sender
        record.message = message
        record.downloads = downloads
        record.revokedAt = revokedAt
        record.linkToken = opens ? LinkToken.generate() : nil
        record.stored = stored ? true : nil
    }
}

/// A change of a link's limits, code or greeting: each nil leaves it as it is, `.some(nil)` clears it; `revoked`
/// true cuts the link off (its sharing stops), false opens it again at the same address.
public struct LinkChange: Equatable, Sendable {
    public var expiresAt: Timestamp??
    public var maxDownloads: Int64??
    public var code: String??
    public var revoked: Bool?
    public var sender: String??
    public var message: String??

    public init(
        expiresAt: Timestamp?? = nil, maxDownloads: Int64?? = nil, code: String?? = nil, revoked: Bool? = nil, sender: String?? = nil,
        message: String?? = nil
    ) {
        self.expiresAt = expiresAt
        self.maxDownloads = maxDownloads
        self.code = code
        self.revoked = revoked
        self.sender = sender
        self.message = message
    }

    public var isEmpty: Bool { expiresAt == nil && maxDownloads == nil && code == nil && revoked == nil && sender == nil && message == nil }

    /// Applies the change to `record` at `now`.
    func apply(to record: inout ShareRecord, at now: Timestamp) {
        if let expiresAt { record.expiresAt = expiresAt }
        if let maxDownloads { record.maxDownloads = maxDownloads }
        if let code { record.code = code }
        if let sender { record.sender = sender }
        if let message { record.message = message }
        if let revoked { record.revokedAt = revoked ? record.revokedAt ?? now : nil }
    }
}

/// The secret of a share's link: 128 bits from the system's cryptographic generator, as 22 characters of
/// base64url. A link is found by it alone, so that nobody finds one by trying ids.
public enum LinkToken {
    static let length = 22

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = [generator.next(), generator.next()] as [UInt64]
        return Base64URL.encode(bits.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
    }

    /// Whether `text` could be a token: anything else is not found without asking the store.
    public static func isPlausible(_ text: some StringProtocol) -> Bool {
        text.utf8.count == length && Base64URL.decode(String(text)) != nil
    }
}
