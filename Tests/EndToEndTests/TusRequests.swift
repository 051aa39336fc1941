import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests of the resumable upload protocol, sent as a client would, with bodies of bytes.
enum TusRequests {
    static let resumable = ["Tus-Resumable": "1.0.0"]

    /// A request with a body of bytes: the answer's head and body.
    static func send(_ method: String, _ url: String, headers: [String: String], body: Data? = nil) async throws -> (HTTPURLResponse, Data) {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 120)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in resumable.merging(headers, uniquingKeysWith: { $1 }) { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await exchange(request)
        return (response as! HTTPURLResponse, data)
    }

    /// Starts an upload of `length` bytes named `name`: its path.
    static func create(_ server: String, length: Int, name: String) async throws -> String? {
        let metadata = "filename " + Data(name.utf8).base64EncodedString()
        let (created, _) = try await send("POST", "\(server)/share/uploads", headers: ["Upload-Length": "\(length)", "Upload-Metadata": metadata])
        return created.value(forHTTPHeaderField: "Location")
    }

    /// Appends `bytes` at `offset`.
    static func append(_ url: String, at offset: Int, _ bytes: some Sequence<UInt8>) async throws -> (HTTPURLResponse, Data) {
        try await send(
            "PATCH", url, headers: ["Upload-Offset": "\(offset)", "Content-Type": "application/offset+octet-stream"], body: Data(bytes))
    }

    /// The bytes an upload holds, as a node says.
    static func offset(_ url: String) async throws -> Int {
        Int(try await send("HEAD", url, headers: [:]).0.value(forHTTPHeaderField: "Upload-Offset") ?? "") ?? -1
    }
}
