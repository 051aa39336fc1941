/// How a store writes records for one response: where links point, the moment their state is judged at, and
/// whether the reader may see extraction codes (a share's owner; not someone reading a public history unsigned).
public struct RecordForm: Sendable {
    public var links: ShareLinks
    /// The moment states are judged at: a store sets it as it reads.
    public var now: Timestamp
    public var showsCodes: Bool

    /// Links to this service at the root, codes shown: what a store writes until told otherwise.
    public static let plain = RecordForm(links: ShareLinks(pathPrefix: ""))

    public init(links: ShareLinks, now: Timestamp = .now(), showsCodes: Bool = true) {
        self.links = links
        self.now = now
        self.showsCodes = showsCodes
    }
}

/// A record's link and its limits as a store holds them, text as UTF-8 bytes.
public struct LinkColumns<Text: Collection<UInt8>> {
    public var token: Text?
    public var source: Text?
    public var expiresAt: Int64?
    public var maxDownloads: Int64?
    public var downloads: Int64
    public var revokedAt: Int64?
    public var code: Text?
    /// Whether the service holds the share's bytes.
    public var stored: Bool
    public var sender: Text?
    public var message: Text?

    public init(
        token: Text?, source: Text?, expiresAt: Int64?, maxDownloads: Int64?, downloads: Int64, revokedAt: Int64?, code: Text?, stored: Bool = false,
        sender: Text? = nil, message: Text? = nil
    ) {
        self.token = token
        self.source = source
        self.expiresAt = expiresAt
        self.maxDownloads = maxDownloads
        self.downloads = downloads
        self.revokedAt = revokedAt
        self.code = code
        self.stored = stored
        self.sender = sender
        self.message = message
    }

    /// The link's state at `now`.
    @inlinable
    public func state(at now: Timestamp) -> ShareState {
        ShareState.of(
            revokedAt: revokedAt.map(Timestamp.init(millisecondsSinceEpoch:)), expiresAt: expiresAt.map(Timestamp.init(millisecondsSinceEpoch:)),
            maxDownloads: maxDownloads, downloads: downloads, at: now)
    }
}

extension RecordForm {
    /// This form, states judged now.
    public func judgedNow() -> RecordForm {
        var form = self
        form.now = .now()
        return form
    }
}

extension ShareRecord {
    /// Sets what the record shows of its link from the fields a store holds (`linkToken`, `revokedAt`, the limits,
    /// `downloads`), as `form` says, its state judged at `form.now`.
    public mutating func show(_ form: RecordForm) {
        link = form.links.link(id: id, token: linkToken)
        if linkToken == nil {
            downloads = nil
            state = nil
        } else {
            downloads = downloads ?? 0
            state = ShareState.of(revokedAt: revokedAt, expiresAt: expiresAt, maxDownloads: maxDownloads, downloads: downloads ?? 0, at: form.now)
        }
        if !form.showsCodes { code = nil }
    }
}

extension ShareRecord {
    /// The record as `form` shows it.
    public func shown(_ form: RecordForm) -> ShareRecord {
        var record = self
        record.show(form)
        return record
    }
}
