import Foundation
import ShareHistory
import ShareKit
import ShareThumbnails

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
    /// Read from imports only: the thumbnail an export carried, as base64. A thumbnail is made from a picture
    /// (`PUT /share/{id}/thumbnail`); an import takes one only as this server makes them, and keeps it as it is.
    var thumbnailImage: String?

    /// The record to store, checked against every field rule; with `importing`, the fields only an import reads
    /// too (in the trash, with its thumbnail).
    func newShare(importing: Bool = false) throws(ShareError) -> NewShare {
        var share = try NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size?.value, trashedAt: importing ? trashedAt : nil)
        if importing, let thumbnailImage {
            guard let image = Data(base64Encoded: thumbnailImage).map(Array.init), ThumbnailMaker.isThumbnail(image) else {
                throw .invalidField("thumbnailImage", "must be a thumbnail as an export holds it: a WebP of at most 192 × 192 pixels, in base64")
            }
            share.thumbnail = Thumbnail(image: image)
        }
        return share
    }
}

/// The body of `PATCH /share/{id}`: a rename, a move, or both.
struct SharePatchBody: Decodable {
    var name: String?
    var folder: String?
}
