import Foundation
import ShareKit

/// A share's file at its link (`…/s/{token}/file`), as any recipient fetches it: with no token (a link may lead to
/// another host); or its owner's own (`/share/{id}/file`), signed in, which never counts as a download. Both
/// resumable with `Range` while the `ETag` stays the same.
extension ShareAPI {
    /// Where a share's file is fetched from, and whether as its owner.
    public struct FileSource: Sendable, Equatable {
        public let url: String
        let owned: Bool
    }

    /// The file of the share `id` of this history, as its owner reads it.
    public func ownedFile(id: String) throws(ClientError) -> FileSource {
        FileSource(url: try recordURL(id, action: "/file"), owned: true)
    }

    /// The file of the share at `link`, as a recipient opens it.
    public func linkedFile(link: String, code: String?) -> FileSource {
        FileSource(url: fileURL(ofLink: link, code: code), owned: false)
    }

    /// What the file at a link is, asked with `HEAD`, which counts no download.
    public struct LinkedFile: Sendable, Equatable {
        public let size: Int64
        public let etag: String
        /// The file's name as the server gives it (`Content-Disposition`).
        public let name: String?
    }

    /// The URL of the file of the share at `link` (a path of this server, or a full URL), with its code.
    func fileURL(ofLink link: String, code: String?) -> String {
        let full = link.hasPrefix("/") && !link.hasPrefix("//") ? server.origin + link : link
        let (path, query) = full.firstIndex(of: "?").map { (full[..<$0], full[$0...].dropFirst()) } ?? (full[...], "")
        let parameters = FormEncoding.encode(code.map { [("code", $0)] } ?? [])
        let joined = [String(query), parameters].filter { !$0.isEmpty }.joined(separator: "&")
        return path + "/file" + (joined.isEmpty ? "" : "?" + joined)
    }

    /// What the file is, asked with `HEAD`, which counts no download.
    public func fileFacts(_ source: FileSource) throws(ClientError) -> LinkedFile {
        let response = try fetch(source, method: "HEAD")
        guard let size = response.headers["content-length"].flatMap(Int64.init), let etag = response.headers["etag"] else {
            throw .unexpected("\(source.url.prefix(200)) is not a share's file")
        }
        return LinkedFile(size: size, etag: etag, name: response.headers["content-disposition"].flatMap(Self.fileName))
    }

    /// Downloads the file into `sink` from byte `offset` on, if its bytes are still `etag`'s; true when the server
    /// sent from there (206), false when it sent the whole file again (200).
    public func download(
        _ source: FileSource, from offset: Int64, etag: String, to sink: @escaping ([UInt8]) -> Void
    ) throws(ClientError) -> Bool {
        let range = offset > 0 ? ["Range": "bytes=\(offset)-", "If-Range": etag] : [:]
        return try fetch(source, method: "GET", headers: range, sink: sink).status == 206
    }

    /// The file's answer: the owner's through the API (signed in, its errors the API's), a link's with no token.
    private func fetch(
        _ source: FileSource, method: String, headers: [String: String] = [:], sink: (([UInt8]) -> Void)? = nil
    ) throws(ClientError) -> HTTPResponse {
        if source.owned { return try send(method, source.url, id: nil, sink: sink, headers: headers.merging(["Accept": "*/*"]) { $1 }) }
        let response = try exchange(
            HTTPRequest(method: method, url: source.url, headers: headers.merging(["User-Agent": "share/\(ShareVersion.current)"]) { $1 }),
            sink: sink)
        try Self.refuseClosedLink(response, url: source.url)
        return response
    }

    private static func refuseClosedLink(_ response: HTTPResponse, url: String) throws(ClientError) {
        switch response.status {
        case 200, 206: return
        case 302:
            throw .rejected(detail: "this share lives on another service: \(response.headers["location"].map { String($0.prefix(500)) } ?? "")")
        case 403:
            throw .forbidden(
                detail: url.contains("code=") ? "that extraction code is not right" : "the link asks for its extraction code: give it with --code")
        case 404: throw .rejected(detail: "no share opens at this link")
        case 410: throw .rejected(detail: "this link no longer opens: it expired, ran out of downloads or was revoked")
        case 429: throw .rejected(detail: "too many tries at this link; try again in \(response.headers["retry-after"] ?? "a few") s")
        default: throw .serverFailed(status: response.status, detail: "the link's file could not be fetched")
        }
    }

    /// The UTF-8 name of a `Content-Disposition` (`filename*=UTF-8''…`), else its plain `filename`.
    static func fileName(_ disposition: String) -> String? {
        for part in disposition.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if part.lowercased().hasPrefix("filename*=utf-8''") { return String(part.dropFirst("filename*=UTF-8''".count)).removingPercentEncoding }
        }
        for part in disposition.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where part.hasPrefix("filename=") {
            return String(part.dropFirst("filename=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
