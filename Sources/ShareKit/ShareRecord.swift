/// One share of a file, exactly as the HTTP API sends it.
///
/// `name`, `id` and `createdAt` are the fields the original mobile client parses; they never change.
public struct ShareRecord: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var folder: String
    public var createdAt: Timestamp
    public var size: Int64
    public var type: IconCategory
    /// Set only on records in the trash.
    public var trashedAt: Timestamp?
    /// True when the record has a thumbnail (`GET /share/{id}/thumbnail`); absent when it has none.
    public var thumbnail: Bool?
    /// Where a recipient opens the share; absent when it cannot be opened.
    public var link: String?
    /// Where a share made on another service lives: its link leads there.
    public var source: String?
    /// When the link stops opening.
    public var expiresAt: Timestamp?
    /// The link stops opening after this many completed downloads.
    public var maxDownloads: Int64?
    /// Completed downloads so far; with `state`, on every share this service opens.
    public var downloads: Int64?
    public var state: ShareState?
    /// The extraction code a recipient gives with the link; shown to the share's owner only.
    public var code: String?
    /// Who the recipient's page says sent the share, as its owner chose to be named.
    public var sender: String?
    /// What the recipient's page says with the share.
    public var message: String?
    /// The secret of this service's link (`/s/{token}`), which `link` shows; never sent on its own.
    public var linkToken: String?
    /// When the owner cut the link off (`state` is then `revoked`).
    public var revokedAt: Timestamp?
    /// True when the service holds the file's bytes (an upload's share); absent otherwise.
    public var stored: Bool?
    /// The files of a share that holds several, in the order of their bytes; absent for a share of one file.
    public var files: [BundleFile]?

    public init(
        id: String, name: String, folder: String, createdAt: Timestamp, size: Int64, type: IconCategory,
        trashedAt: Timestamp? = nil, thumbnail: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.folder = folder
        self.createdAt = createdAt
        self.size = size
        self.type = type
        self.trashedAt = trashedAt
        self.thumbnail = thumbnail
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, folder, createdAt, size, type, trashedAt, thumbnail, link, source, expiresAt, maxDownloads, downloads, state, code, stored,
            sender, message, files
    }
}
