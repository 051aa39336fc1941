import ShareKit
import ShareStore

/// The body of `POST /share`, and of each record of an import. Every field is optional here, so that a missing
/// one is reported by its name when the record is made.
struct NewShareBody: Decodable {
    var id: String?
    var name: String?
    var folder: String?
    var createdAt: String?
    var size: WholeNumber?

    /// The record to store, checked against every field rule.
    func newShare() throws(ShareError) -> NewShare {
        try NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size?.value)
    }
}

/// The body of `PATCH /share/{id}`: a rename, a move, or both.
struct SharePatchBody: Decodable {
    var name: String?
    var folder: String?
}
