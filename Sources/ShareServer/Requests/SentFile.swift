import ShareHistory
import ShareKit

/// What the sender of a file through a request is told once it arrived: its name and size, nothing of the owner's
/// share (its id, its link).
struct SentFile: Encodable {
    let name: String
    let size: Int64
    let receivedAt: Timestamp

    init(_ record: ShareRecord) {
        name = record.name
        size = record.size
        receivedAt = record.createdAt
    }

    /// The share a file named `name` becomes, sent through `request`: in its folder, from it.
    static func share(named name: String, size: Int64, through request: FileRequest) throws(ShareError) -> NewShare {
        var share = try NewShare(id: nil, name: name, folder: request.folder, createdAt: nil, size: size)
        share.arrives(through: request.id)
        return share
    }
}
