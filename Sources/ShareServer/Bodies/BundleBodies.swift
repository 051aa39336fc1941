import ShareHistory
import ShareKit

/// The body of `POST /share/bundles`: the files one share holds, in the order their bytes follow one another in the
/// upload that `POST` starts, and what an upload's metadata says of its share otherwise (its name, folder and link).
struct NewBundleBody: Decodable {
    struct File: Decodable {
        var name: String?
        var size: WholeNumber?
    }

    var name: String?
    var folder: String?
    var files: [File]?
    var expiresAt: String?
    var maxDownloads: WholeNumber?
    var code: CodeChoice?
    var sender: String?
    var message: String?

    /// The share the upload becomes, checked against every field rule; named after the folder its files share, else
    /// after how many they are, when it is not named.
    func newShare() throws(ShareError) -> NewShare {
        guard let files else { throw .invalidField("files", "is required") }
        let checked = try BundleFiles.validate(files.map { ($0.name, $0.size?.value) })
        var share = try NewShare(
            id: nil, name: name ?? BundleFiles.defaultName(of: checked), folder: folder, createdAt: nil,
            size: checked.reduce(0) { $0 + $1.size })
        share.files = checked
        share.link = try LinkFields.newLink(
            source: nil, expiresAt: expiresAt, maxDownloads: maxDownloads, code: code, sender: sender, message: message)
        return share
    }
}
