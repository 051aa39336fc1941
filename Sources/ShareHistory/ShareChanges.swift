import ShareKit

/// A record to create, already checked against every field rule.
public struct NewShare: Equatable, Sendable {
    /// nil: the store generates one.
    public let id: String?
    public let name: String
    public let folder: String
    /// nil: the moment it is stored.
    public let createdAt: Timestamp?
    public let size: Int64
    /// Set for a record that goes straight into the trash (an import of an export that held the trash).
    public let trashedAt: Timestamp?
    /// The record's thumbnail, as an export carried it (imports only).
    public var thumbnail: Thumbnail?
    /// Its link: where it leads, its limits and code.
    public var link = NewLink()
    /// The files of a share that holds several, their bytes one after another (`size` their sum).
    public var files: [BundleFile]?
    /// The id of the file request it arrives through (`arrives(through:)`).
    public private(set) var request: String?

    /// Validates raw client input; each failure names its field.
    public init(
        id: String?, name: String?, folder: String?, createdAt: String?, size: Int64?, trashedAt: String? = nil
    ) throws(ShareError) {
        guard let name else { throw .invalidField("name", "is required") }
        self.name = try FileName.validate(name)
        guard let size else { throw .invalidField("size", "is required") }
        guard size >= 0 else { throw .invalidField("size", "must be 0 or more bytes") }
        self.folder = try folder.map { text throws(ShareError) in try FolderPath.normalize(text) } ?? FolderPath.root
        self.id = try id.map { text throws(ShareError) in try ShareID.validate(text) }
        self.createdAt = try createdAt.map { text throws(ShareError) in try Self.time(text, field: "createdAt") }
        self.trashedAt = try trashedAt.map { text throws(ShareError) in try Self.time(text, field: "trashedAt") }
        self.size = size
    }

    private static func time(_ text: String, field: String) throws(ShareError) -> Timestamp {
        guard let time = Timestamp(rfc3339: text) else {
            throw .invalidField(field, "must be an RFC 3339 time such as 2021-01-17T12:34:56.789Z, got '\(text)'")
        }
        return time
    }
}

extension NewShare {
    /// The share a file named `name`, of `size` bytes, becomes when sent through `request`: in its folder, from it.
    public static func sent(named name: String, size: Int64, through request: FileRequest) throws(ShareError) -> NewShare {
        var share = try NewShare(id: nil, name: name, folder: request.folder, createdAt: nil, size: size)
        share.arrives(through: request.id)
        return share
    }

    /// Makes this a file sent through request `id` (nil: none): its source says so.
    public mutating func arrives(through id: String?) {
        request = id
        if let id { link.source = FileRequest.source(id: id) }
    }

    /// The record this makes when stored at `now`: its type from its name, its time `now` unless it gives one, and
    /// a newly drawn id unless it gives one (each call draws again: what a store does when a drawn id is taken).
    public func record(at now: Timestamp) -> ShareRecord {
        var record = ShareRecord(
            id: id ?? ShareID.generate(), name: name, folder: folder, createdAt: createdAt ?? now, size: size,
            type: IconCategory(fileName: name), trashedAt: trashedAt)
        record.files = files
        link.give(to: &record)
        return record
    }
}

/// A rename, a move and/or a change of the link of an existing record.
public struct SharePatch: Equatable, Sendable {
    public let name: String?
    public let folder: String?
    public let link: LinkChange

    public init(name: String?, folder: String?, link: LinkChange = LinkChange()) throws(ShareError) {
        guard name != nil || folder != nil || !link.isEmpty else {
            throw .malformedBody(
                "give 'name' to rename, 'folder' to move, or 'expiresAt', 'maxDownloads', 'code', 'revoked', 'sender' or 'message' to change the link"
            )
        }
        self.name = try name.map { text throws(ShareError) in try FileName.validate(text) }
        self.folder = try folder.map { text throws(ShareError) in try FolderPath.normalize(text) }
        self.link = link
    }

    /// Applies the patch to `record` at `now`: the type follows a new name.
    public func apply(to record: inout ShareRecord, at now: Timestamp) {
        if let name {
            record.name = name
            record.type = IconCategory(fileName: name)
        }
        if let folder { record.folder = folder }
        link.apply(to: &record, at: now)
    }
}
