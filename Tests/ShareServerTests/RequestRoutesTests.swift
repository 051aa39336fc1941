import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import Testing

/// `/requests` and a request's link through the real router: bad fields are problems naming them, a public history's
/// unsigned readers never get a request's link or code (which would let them write into it), and links live under
/// the base path. If these broke, an owner would meet a 500 for a typo, or a reader would send files into a history.
@Suite struct RequestRoutesTests {
    private static let owner: HTTPFields = [.authorization: "Bearer s3cret"]

    @Test func badFieldsAreProblemsNamingTheField() async throws {
        try await withServer({ $0.server.maxUploadBytes = 1_000_000 }) { client in
            let cases: [(body: String, field: String)] = [
                (#"{"folder": "/x"}"#, "'title'"), (#"{"title": "  "}"#, "'title'"), (#"{"title": "a\u0007b"}"#, "'title'"),
                (#"{"title": "t", "maxFiles": 0}"#, "'maxFiles'"), (#"{"title": "t", "maxFiles": 1.5}"#, "maxFiles"),
                (#"{"title": "t", "maxBytes": 1000001}"#, "'maxBytes'"), (#"{"title": "t", "expiresAt": "2020-01-01T00:00:00Z"}"#, "'expiresAt'"),
                (#"{"title": "t", "code": "ab"}"#, "'code'"), (#"{"title": "t", "folder": "a//b"}"#, "'folder'"),
            ]
            for (body, field) in cases {
                let response = try await client.send(.post, "/requests", body)
                #expect(response.status == .badRequest && response.problemDetail.contains(field), "\(body): \(response.text)")
            }
            let made = try await client.send(.post, "/requests", #"{"title": "Receipts", "code": true}"#)
            let request = try made.decode(FileRequest.self)
            #expect(made.status == .created && request.code?.count ?? 0 >= 4 && request.state == .open, "a code drawn by the server")
            #expect(try await client.send(.patch, "/requests/\(request.id)", "{}").status == .badRequest)
            #expect(try await client.send(.get, "/requests/NOSUCH").status == .notFound)
            let cleared = try await client.send(.patch, "/requests/\(request.id.lowercased())", #"{"code": null, "maxFiles": 3}"#)
            #expect(try cleared.decode(FileRequest.self).code == nil && (try cleared.decode(FileRequest.self).maxFiles) == 3)
            #expect(try await client.send(.delete, "/requests/\(request.id)").status == .noContent)
            #expect(try await client.send(.get, "/requests").decode([FileRequest].self).isEmpty)
        }
    }

    @Test func aPublicHistorysUnsignedReadersNeverGetARequestsLinkOrCode() async throws {
        try await withServer({
            $0.auth.tokens = ["s3cret"]
            $0.auth.publicRead = true
        }) { client in
            #expect(try await client.send(.post, "/requests", #"{"title": "t"}"#).status == .unauthorized)
            let made = try await client.send(.post, "/requests", #"{"title": "Receipts", "code": "Open42"}"#, headers: Self.owner)
            #expect(try made.decode(FileRequest.self).link != nil && (try made.decode(FileRequest.self).code) == "Open42")
            let anonymous = try await client.send(.get, "/requests").decode([FileRequest].self)
            #expect(anonymous.count == 1 && anonymous[0].link == nil && anonymous[0].code == nil)
            #expect(try await client.send(.get, "/requests", headers: Self.owner).decode([FileRequest].self).first?.link != nil)
        }
    }

    @Test func aRequestsLinkAndItsPageLiveUnderTheBasePath() async throws {
        try await withServer({ $0.server.basePath = "/files" }) { client in
            let request = try await client.send(.post, "/files/requests", #"{"title": "Scans"}"#).decode(FileRequest.self)
            let link = try #require(request.link)
            #expect(link.hasPrefix("/files/r/"))
            let page = try await client.send(.get, link)
            #expect(page.status == .ok && page.text.contains(#"<script type="module" src="/files/request.js">"#))
            #expect(page.text.contains(#"data-link="\#(link)""#) && page.headers[.contentSecurityPolicy]?.contains("connect-src 'self'") == true)
        }
    }
}
