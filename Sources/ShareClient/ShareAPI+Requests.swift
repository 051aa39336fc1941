import Foundation
import ShareKit

/// File requests (`/requests`) of the caller's history: links through which anyone sends files in.
extension ShareAPI {
    /// Makes a file request asking for files titled `title`, into `folder`, within the limits given (`link`: its
    /// expiry and code).
    public func createRequest(
        title: String, folder: String?, maxFiles: Int64?, maxBytes: Int64?, link: NewLinkFields
    ) throws(ClientError) -> (request: FileRequest, body: Data) {
        var fields = Self.fields(of: link, folder: folder)
        fields["title"] = .text(title)
        if let maxFiles { fields["maxFiles"] = .integer(maxFiles) }
        if let maxBytes { fields["maxBytes"] = .integer(maxBytes) }
        let response = try send("POST", historyURL("/requests"), id: nil, body: fields)
        return (try decode(FileRequest.self, response.body), response.body)
    }

    public func requests() throws(ClientError) -> (requests: [FileRequest], body: Data) {
        let response = try send("GET", historyURL("/requests"), id: nil)
        return (try decode([FileRequest].self, response.body), response.body)
    }

    /// Closes file request `id`: its link takes no more files.
    public func closeRequest(id: String) throws(ClientError) -> (request: FileRequest, body: Data) {
        guard !id.isEmpty, id.utf8.count <= 40, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw .rejected(detail: "no file request with id '\(id.prefix(40))'")
        }
        let response = try send("PATCH", historyURL("/requests/\(id)"), id: nil, body: ["closed": .bool(true)])
        return (try decode(FileRequest.self, response.body), response.body)
    }
}
