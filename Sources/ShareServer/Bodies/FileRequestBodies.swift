import ShareHistory
import ShareKit

/// The body of `POST /requests` and `PATCH /requests/{id}`: what a file request asks for and within which limits, and
/// (to change) whether it is closed. In a `PATCH`, `null` clears a limit or the code.
struct FileRequestBody: Decodable {
    var title: String?
    var folder: String?
    var maxFiles: PatchField<WholeNumber>?
    var maxBytes: PatchField<WholeNumber>?
    var expiresAt: PatchField<String>?
    var code: PatchField<CodeChoice>?
    var closed: Bool?

    private enum CodingKeys: String, CodingKey {
        case title, folder, maxFiles, maxBytes, expiresAt, code, closed
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        folder = try container.decodeIfPresent(String.self, forKey: .folder)
        closed = try container.decodeIfPresent(Bool.self, forKey: .closed)
        maxFiles = try container.patchField(.maxFiles)
        maxBytes = try container.patchField(.maxBytes)
        expiresAt = try container.patchField(.expiresAt)
        code = try container.patchField(.code)
    }

    /// A new request, each field checked against `maxUploadBytes` and `now`.
    func draft(maxUploadBytes: Int64, now: Timestamp) throws(ShareError) -> RequestDraft {
        guard let title else { throw .invalidField("title", "is required: what the request asks for") }
        let change = try change(maxUploadBytes: maxUploadBytes, now: now)
        return RequestDraft(
            title: try ShareGreeting.title(title), folder: change.folder ?? FolderPath.root, maxFiles: change.maxFiles ?? nil,
            maxBytes: change.maxBytes ?? nil, expiresAt: change.expiresAt ?? nil, code: change.code ?? nil)
    }

    /// What a `PATCH` changes, checked the same way.
    func change(maxUploadBytes: Int64, now: Timestamp) throws(ShareError) -> RequestChange {
        let change = RequestChange(
            title: try title.map { text throws(ShareError) in try ShareGreeting.title(text) },
            folder: try folder.map { text throws(ShareError) in try FolderPath.normalize(text) },
            maxFiles: try PatchField.change(maxFiles) { number throws(ShareError) in
                guard (1...FileRequest.maxFilesLimit).contains(number.value) else {
                    throw .invalidField("maxFiles", "must be from 1 to \(FileRequest.maxFilesLimit), got \(number.value)")
                }
                return number.value
            },
            maxBytes: try PatchField.change(maxBytes) { number throws(ShareError) in
                guard (1...maxUploadBytes).contains(number.value) else {
                    throw .invalidField("maxBytes", "must be from 1 to \(maxUploadBytes) bytes (max_upload_bytes), got \(number.value)")
                }
                return number.value
            },
            expiresAt: try PatchField.change(expiresAt) { text throws(ShareError) in
                let time = try LinkFields.expiresAt(text)
                guard time > now else { throw .invalidField("expiresAt", "must be in the future, got '\(text)'") }
                return time
            },
            code: try PatchField.change(code) { choice throws(ShareError) in try choice.checked() },
            closed: closed)
        guard !change.isEmpty else {
            throw .malformedBody("give 'title', 'folder', 'maxFiles', 'maxBytes', 'expiresAt', 'code' or 'closed' to change the request")
        }
        return change
    }
}
