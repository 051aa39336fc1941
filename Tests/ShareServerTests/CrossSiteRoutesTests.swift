import HTTPTypes
import HummingbirdTesting
import ShareKit
import Testing

/// What a page on another web site can make a browser send to a daemon, above all one with no tokens on the
/// loopback: nothing it sends may change the history, and nothing it reads through a borrowed host name.
@Suite struct CrossSiteRoutesTests {
    private let record = #"{"name": "planted.txt", "size": 1}"#

    /// The bodies a page may send anywhere without a CORS preflight: forms and plain text. None is taken.
    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain; charset=utf-8"])
    func aBodyNotDeclaredAsJSONIs415AndChangesNothing(contentType: String) async throws {
        try await withServer { client in
            let created = try await client.create(#""name": "kept.txt", "size": 1"#)
            let attempts: [(HTTPRequest.Method, String, String)] = [
                (.post, "/share", record), (.patch, "/share/\(created.id)", #"{"name": "renamed.txt"}"#),
                (.post, "/share/import", record), (.post, "/share/\(created.id)/restore", "{}"),
                (.delete, "/share/\(created.id)", "x"),
            ]
            for (method, uri, body) in attempts {
                let response = try await client.send(method, uri, body, headers: [.contentType: contentType])
                #expect(response.status == .unsupportedMediaType, "\(method) \(uri): \(response.text)")
                #expect(response.problemDetail.contains("application/json"), "\(response.text)")
            }
            let listing = try await client.send(.get, "/share")
            #expect(listing.text.contains("kept.txt") && !listing.text.contains("planted") && !listing.text.contains("renamed"))
        }
    }

    @Test func aBodyWithoutAContentTypeIs415() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/share", method: .post, headers: [:], body: .init(string: record))
            #expect(response.status == .unsupportedMediaType)
            #expect(response.problemDetail.hasSuffix("got none"), "\(response.text)")
        }
    }

    @Test func anImportTakesNDJSONAndJSON() async throws {
        try await withServer { client in
            for type in ["application/x-ndjson", "application/json; charset=utf-8"] {
                let response = try await client.send(.post, "/share/import", record, headers: [.contentType: type])
                #expect(response.status == .ok, "\(type): \(response.text)")
            }
        }
    }

    @Test(arguments: [["Origin": "https://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"]])
    func aChangeFromAnotherSiteIs403NamingIt(headers: [String: String]) async throws {
        try await withServer { client in
            var fields: HTTPFields = [.contentType: "application/json"]
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            for (method, uri) in [(HTTPRequest.Method.post, "/share"), (.delete, "/share/ABCDEFGH"), (.post, "/share/import")] {
                let response = try await client.execute(uri: uri, method: method, headers: fields, body: .init(string: record))
                #expect(response.status == .forbidden, "\(method) \(uri) \(headers): \(response.text)")
                #expect(response.problemDetail.contains(headers["Origin"] ?? "cross-site"), "\(response.text)")
            }
            #expect(try await client.send(.get, "/share").text == "[]")
            let read = try await client.execute(uri: "/share", method: .get, headers: [.origin: "https://evil.example"])
            #expect(read.status == .ok, "a read changes nothing: CORS keeps its answer from the other site")
        }
    }
}
