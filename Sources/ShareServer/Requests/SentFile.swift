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
}
