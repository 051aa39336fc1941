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
}
