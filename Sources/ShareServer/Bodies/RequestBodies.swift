import Foundation
import ShareHistory
import ShareKit
import SharePictures
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
    /// The link: where a share made elsewhere lives, when it stops opening, its code.
    var source: String?
    var expiresAt: String?
    var maxDownloads: WholeNumber?
    var code: CodeChoice?
    /// What the recipient's page says: who sent it and a message.
    var sender: String?
    var message: String?
    /// Read from imports only: an exported share's downloads, and its state (a revoked one stays revoked).
    var downloads: WholeNumber?
    var state: ShareState?

    /// The record to store, checked against every field rule; with `importing`, the fields only an import reads
    /// too (in the trash, with its thumbnail).
    func newShare(importing: Bool = false) throws(ShareError) -> NewShare {
        var share = try NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size?.value, trashedAt: importing ? trashedAt : nil)
        share.link = try LinkFields.newLink(
            source: source, expiresAt: expiresAt, maxDownloads: maxDownloads, code: code, sender: sender, message: message)
        if importing {
            if let downloads {
                guard downloads.value >= 0 else { throw .invalidField("downloads", "must be 0 or more, got \(downloads.value)") }
                share.link.downloads = downloads.value
            }
            if state == .revoked { share.link.revokedAt = share.createdAt ?? .now() }
        }
        if importing, let thumbnailImage {
            guard let image = Data(base64Encoded: thumbnailImage).map(Array.init), ThumbnailFile.isThumbnail(image) else {
                throw .invalidField("thumbnailImage", "must be a thumbnail as an export holds it: a WebP of at most 192 × 192 pixels, in base64")
            }
            share.thumbnail = Thumbnail(image: image)
        }
        return share
    }
}

/// The body of `PATCH /share/{id}`: a rename, a move, a change of the link's limits, code, sender or message (`null`
/// clears one), a revocation (`revoked: true`) or its undoing (`false`: the same link opens again).
struct SharePatchBody: Decodable {
    var name: String?
    var folder: String?
    var expiresAt: PatchField<String>?
    var maxDownloads: PatchField<WholeNumber>?
    var code: PatchField<CodeChoice>?
    var revoked: Bool?
    var sender: PatchField<String>?
    var message: PatchField<String>?

    private enum CodingKeys: String, CodingKey {
        case name, folder, expiresAt, maxDownloads, code, revoked, sender, message
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        folder = try container.decodeIfPresent(String.self, forKey: .folder)
        revoked = try container.decodeIfPresent(Bool.self, forKey: .revoked)
        expiresAt = try container.patchField(.expiresAt)
        maxDownloads = try container.patchField(.maxDownloads)
        code = try container.patchField(.code)
        sender = try container.patchField(.sender)
        message = try container.patchField(.message)
    }

    func patch() throws(ShareError) -> SharePatch {
        let link = LinkChange(
            expiresAt: try PatchField.change(expiresAt) { text throws(ShareError) in try LinkFields.expiresAt(text) },
            maxDownloads: try PatchField.change(maxDownloads) { number throws(ShareError) in try LinkFields.maxDownloads(number) },
            code: try PatchField.change(code) { choice throws(ShareError) in try choice.checked() }, revoked: revoked,
            sender: try PatchField.change(sender) { text throws(ShareError) in try ShareGreeting.sender(text) },
            message: try PatchField.change(message) { text throws(ShareError) in try ShareGreeting.message(text) })
        return try SharePatch(name: name, folder: folder, link: link)
    }
}
