import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShareServer

/// The web page's own files: served at the base path without a token, with the headers that keep them safe.
@Suite struct WebPageRoutesTests {
    @Test func thePageAndItsModulesNeedNoTokenAndForbidInlineScripts() async throws {
        try await withServer({ $0.auth.tokens = ["s3cret"] }) { client in
            let page = try await client.send(.get, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<base href="/">"#))
            let policy = page.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let script = try await client.send(.get, "/app.js")
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await client.send(.get, "/share").status == .unauthorized, "the API still needs the token")
        }
    }

    @Test func underASubPathThePageSetsItsBase() async throws {
        try await withServer({ $0.server.basePath = "/files" }) { client in
            let page = try await client.send(.get, "/files/")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<base href="/files/">"#), "every URL the page uses is relative to its base")
            #expect(try await client.send(.get, "/files/style.css").headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    @Test func anUnchangedFileIsNotSentAgain() async throws {
        try await withServer { client in
            let first = try await client.send(.get, "/app.js")
            let tag = try #require(first.headers[.eTag])
            let again = try await client.send(.get, "/app.js", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.text.isEmpty)
        }
    }
}
