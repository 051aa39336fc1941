import Foundation
import ShareKit

/// A share's file at its link (`…/s/{token}/file`), as any recipient fetches it: with no token (a link may lead to
/// another host), resumable with `Range` while its `ETag` stays the same.
extension ShareAPI {
    /// What the file at a link is, asked with `HEAD`, which counts no download.
    public struct LinkedFile: Sendable, Equatable {
        public let size: Int64
        public let etag: String
        /// The file's name as the server gives it (`Content-Disposition`).
        public let name: String?
    }

    /// The URL of the file of the share at `link` (a path of this server, or a full URL), with its code.
    public func fileURL(ofLink link: String, code: String?) -> String {
        let full = link.hasPrefix("/") && !link.hasPrefix("//") ? server.origin + link : link
        let (path, query) = full.firstIndex(of: "?").map { (full[..<$0], full[$0...].dropFirst()) } ?? (full[...], "")
        let parameters = FormEncoding.encode(code.map { [("code", $0)] } ?? [])
        let joined = [String(query), parameters].filter { !$0.isEmpty }.joined(separator: "&")
        return path + "/file" + (joined.isEmpty ? "" : "?" + joined)
    }

    public func linkedFile(_ url: String) throws(ClientError) -> LinkedFile {
        let response = try exchange(HTTPRequest(method: "HEAD", url: url, headers: ["User-Agent": "share/\(ShareVersion.current)"]))
        try Self.refuseClosedLink(response, url: url)
        guard let size = response.headers["content-length"].flatMap(Int64.init), let etag = response.headers["etag"] else {
            throw .unexpected("\(url.prefix(200)) is not a share's file")
        }
        return LinkedFile(size: size, etag: etag, name: response.headers["content-disposition"].flatMap(Self.fileName))
    }

    /// Downloads the file at `url` into `sink` from byte `offset` on, if its bytes are still `etag`'s; true when the
    /// server sent from there (206), false when it sent the whole file again (200).
    public func download(_ url: String, from offset: Int64, etag: String, to sink: @escaping ([UInt8]) -> Void) throws(ClientError) -> Bool {
        var headers = ["User-Agent": "share/\(ShareVersion.current)"]
        if offset > 0 { headers.merge(["Range": "bytes=\(offset)-", "If-Range": etag]) { $1 } }
        let response = try exchange(HTTPRequest(method: "GET", url: url, headers: headers), sink: sink)
        try Self.refuseClosedLink(response, url: url)
        return response.status == 206
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
