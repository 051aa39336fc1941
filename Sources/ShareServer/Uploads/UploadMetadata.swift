import Foundation
import ShareHistory
import ShareKit

/// The share an upload becomes, from its `Upload-Metadata` (tus: `key base64,key base64`): `filename` (or `name`),
/// `folder`, its link's `expiresAt` (or `expires`), `maxDownloads` (or `max-downloads`) and `code` (`true` for
/// one the server draws), and what the recipient's page says: `sender` and `message`. Other keys, which tus clients add of their own (`filetype`), are let be.
enum UploadMetadata {
    static func share(_ header: String?, length: Int64) throws(ShareError) -> NewShare {
        let values = try pairs(header ?? "")
        var share = try NewShare(id: nil, name: values["filename"] ?? values["name"], folder: values["folder"], createdAt: nil, size: length)
        share.link = try LinkFields.newLink(
            source: nil, expiresAt: values["expiresAt"] ?? values["expires"],
            maxDownloads: try (values["maxDownloads"] ?? values["max-downloads"]).map(Self.wholeNumber), code: nil, sender: values["sender"],
            message: values["message"])
        share.link.code = try values["code"].map { text throws(ShareError) in
            text == "true" ? ExtractionCode.generate() : try ExtractionCode.validate(text)
        }
        return share
    }

    /// The name of a file sent through a file request (`filename` or `name`), checked: the request decides the rest.
    static func fileName(_ header: String?) throws(ShareError) -> String {
        let values = try pairs(header ?? "")
        guard let name = values["filename"] ?? values["name"] else { throw .invalidField("filename", "is required (Upload-Metadata)") }
        return try FileName.validate(name)
    }

    private static func pairs(_ header: String) throws(ShareError) -> [String: String] {
        var values: [String: String] = [:]
        for pair in header.split(separator: ",") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
            guard let key = parts.first, parts.count <= 2 else {
                throw .invalidField("Upload-Metadata", "must be pairs of a key and a base64 value, separated by commas")
            }
            guard let data = Data(base64Encoded: parts.count == 2 ? String(parts[1]) : ""), let value = String(data: data, encoding: .utf8) else {
                throw .invalidField("Upload-Metadata", "holds a value of '\(key.prefix(40))' that is not UTF-8 text in base64")
            }
            values[String(key)] = value
        }
        return values
    }

    private static func wholeNumber(_ text: String) throws(ShareError) -> WholeNumber {
        guard let value = Int64(clientDigits: text) else { throw .invalidField("maxDownloads", "must be a whole number, got '\(text.prefix(40))'") }
        return WholeNumber(value)
    }
}
