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
    /// Read from imports only: `POST /share` creates live records.
    var trashedAt: String?

    /// The record to store, checked against every field rule; in the trash only when `keepingTrash`.
    func newShare(keepingTrash: Bool = false) throws(ShareError) -> NewShare {
        try NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size?.value, trashedAt: keepingTrash ? trashedAt : nil)
    }
}

/// The body of `PATCH /share/{id}`: a rename, a move, or both.
struct SharePatchBody: Decodable {
    var name: String?
    var folder: String?
}
