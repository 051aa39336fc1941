import Foundation
import ShareKit

/// Uploads in tus 1.0 (`/share/uploads`): a file becomes a share once its last byte is stored, and an upload cut off
/// resumes from the bytes the server holds.
extension ShareAPI {
    private static let tus = ["Tus-Resumable": "1.0.0"]

    /// An upload in progress: where it is, and the share it became when the first request held every byte.
    public struct Upload: Sendable {
        public let url: String
        public let finished: Answer?
    }

    /// Starts the upload of a file of `size` bytes that becomes the share `name` (in `folder`, with `link`'s limits).
    public func startUpload(name: String, size: Int64, folder: String?, link: NewLinkFields) throws(ClientError) -> Upload {
        var metadata = [("filename", name)]
        if let folder { metadata.append(("folder", folder)) }
        if let expiresAt = link.expiresAt { metadata.append(("expiresAt", expiresAt.description)) }
        if let maxDownloads = link.maxDownloads { metadata.append(("maxDownloads", "\(maxDownloads)")) }
        if let sender = link.sender { metadata.append(("sender", sender)) }
        if let message = link.message { metadata.append(("message", message)) }
        switch link.code {
        case .none: break
        case .drawn: metadata.append(("code", "true"))
        case .chosen(let code): metadata.append(("code", code))
        }
        let encoded = metadata.map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
        let response = try send(
            "POST", historyURL("/share/uploads"), id: nil, headers: Self.tus.merging(["Upload-Length": "\(size)", "Upload-Metadata": encoded]) { $1 })
        return try upload(startedBy: response)
    }

    /// Starts the upload of several files as one share (`files`: each one's path in it and size, in the order their
    /// bytes are sent), named `name` (nil: as the server names it), in `folder`, with `link`'s limits.
    public func startBundle(
        name: String?, files: [(name: String, size: Int64)], folder: String?, link: NewLinkFields
    ) throws(ClientError) -> Upload {
        var fields = Self.fields(of: link, folder: folder)
        if let name { fields["name"] = .text(name) }
        fields["files"] = .objects(files.map { ["name": .text($0.name), "size": .integer($0.size)] })
        return try upload(startedBy: send("POST", historyURL("/share/bundles"), id: nil, body: fields, headers: Self.tus))
    }

    /// The upload a `POST` started, as its answer says.
    private func upload(startedBy response: HTTPResponse) throws(ClientError) -> Upload {
        guard let location = response.headers["location"], let id = location.split(separator: "/").last, id.count == 22 else {
            throw .unexpected("the server at \(server.display) started an upload without saying where it is")
        }
        return Upload(url: historyURL("/share/uploads/\(id)"), finished: response.body.isEmpty ? nil : try answer(response))
    }

    /// How many bytes the upload at `url` holds; `.notFound` when the server no longer has it.
    public func uploadOffset(_ url: String) throws(ClientError) -> Int64? {
        let response = try exchange(HTTPRequest(method: "HEAD", url: url, headers: headers(Self.tus)))
        guard response.status != 404 else { return nil }
        guard response.status == 200, let offset = response.headers["upload-offset"].flatMap(Int64.init) else {
            throw .unexpected("the server at \(server.display) did not say how much of the upload it holds (HTTP \(response.status))")
        }
        return offset
    }

    /// Sends `source` (the file from `offset` on) to the upload at `url`: the share, when that was its last byte.
    public func appendUpload(_ url: String, at offset: Int64, from source: UploadSource) throws(ClientError) -> Answer? {
        let response = try send(
            "PATCH", url, id: nil, upload: source, uploadType: "application/offset+octet-stream",
            headers: Self.tus.merging(["Upload-Offset": "\(offset)"]) { $1 })
        return response.status == 204 ? nil : try answer(response)
    }

    /// The headers every request carries, with `extra`.
    func headers(_ extra: [String: String]) -> [String: String] {
        var headers = ["User-Agent": "share/\(ShareVersion.current)"].merging(extra) { $1 }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }
}
