import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

/// The app refreshes its whole list each time its screen appears: with ETags it gets 304s until something changes.
@Suite struct CachingRoutesTests {
    @Test(arguments: Backend.allCases)
    func listingsRecordsAndStatsAreAnswered304UntilTheHistoryChanges(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "a.txt", "size": 1"#)
            for uri in ["/share", "/share/\(record.id)", "/share/stats", "/share?q=a&sort=name"] {
                let first = try await client.send(.get, uri)
                let tag = try #require(first.headers[.eTag], "\(uri)")
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong tag")
                #expect(first.headers[.cacheControl] == "private, no-cache")
                let again = try await client.send(.get, uri, headers: [.ifNoneMatch: tag])
                #expect(again.status == .notModified, "\(uri)")
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.eTag] == tag)
                #expect(try await client.send(.get, uri, headers: [.ifNoneMatch: "\"0-old\", W/\(tag)"]).status == .notModified)
            }
            let before = try #require(try await client.send(.get, "/share").headers[.eTag])
            // A change anywhere changes every tag; a request that changes nothing changes none.
            _ = try await client.send(.post, "/share/\(record.id)/restore")
            #expect(try await client.send(.get, "/share").headers[.eTag] == before, "restoring a live record changes nothing")
            _ = try await client.send(.patch, "/share/\(record.id)", #"{"name": "b.txt"}"#)
            let after = try await client.send(.get, "/share", headers: [.ifNoneMatch: before])
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != before)
            #expect(try await client.send(.get, "/share/NOSUCH1").headers[.eTag] == nil, "errors carry no tag")
        }
    }

    @Test(arguments: Backend.allCases)
    func aConditionalRequestStillNeedsItsToken(_ backend: Backend) async throws {
        try await withServer({ $0.auth.tokens = ["s3cret"] }, backend: backend) { client in
            let token: HTTPFields = [.authorization: "Bearer s3cret"]
            let tag = try #require(try await client.send(.get, "/share", headers: token).headers[.eTag])
            #expect(try await client.send(.get, "/share", headers: [.ifNoneMatch: tag]).status == .unauthorized)
        }
    }

    @Test(arguments: Backend.allCases)
    func theCurrentTagNeverHidesAMissingIdOrABadParameter(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "a.txt", "size": 1"#)
            let tag = try #require(try await client.send(.get, "/share").headers[.eTag])
            #expect(try await client.send(.get, "/share/NOSUCH1", headers: [.ifNoneMatch: tag]).status == .notFound)
            #expect(try await client.send(.get, "/share?limit=0", headers: [.ifNoneMatch: tag]).status == .badRequest)
            #expect(try await client.send(.get, "/share/stats?tz=Nowhere", headers: [.ifNoneMatch: tag]).status == .badRequest)
        }
    }
}
