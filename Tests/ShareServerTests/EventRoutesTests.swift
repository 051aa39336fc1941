import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

/// Every change to a record is kept in its history, with the label of the token that made it.
@Suite struct EventRoutesTests {
    private func events(_ client: any TestClientProtocol, _ uri: String, _ headers: HTTPFields) async throws -> [ShareEvent] {
        try await client.send(.get, uri, headers: headers).decode([ShareEvent].self)
    }

    @Test(arguments: Backend.allCases)
    func eachChangeIsRecordedWithWhoMadeItAndPurgeForgetsThem(_ backend: Backend) async throws {
        try await withServer(
            {
                $0.auth.tokens = ["first-secret"]
                $0.auth.users = ["laptop": ["laptop-secret"]]
            }, backend: backend
        ) { client in
            let laptop: HTTPFields = [.authorization: "Bearer laptop-secret"]
            let unlabelled: HTTPFields = [.authorization: "Bearer first-secret"]
            let record = try await client.send(.post, "/share", #"{"name": "a.txt", "size": 1}"#, headers: laptop).decode(ShareRecord.self)
            _ = try await client.send(.patch, "/share/\(record.id)", #"{"name": "b.txt", "folder": "/x"}"#, headers: unlabelled)
            _ = try await client.send(.patch, "/share/\(record.id)", #"{"name": "b.txt"}"#, headers: laptop)
            _ = try await client.send(.delete, "/share/\(record.id)", headers: laptop)
            let trashed = try await events(client, "/share/\(record.id)/events", laptop)
            #expect(trashed.map(\.action) == [.created, .renamed, .moved, .trashed], "a rename to the same name records nothing")
            #expect(trashed.map(\.by) == ["laptop", "token-1", "token-1", "laptop"], "labels, never the secrets")
            #expect(trashed[1].from == "a.txt" && trashed[1].to == "b.txt")
            #expect(trashed[2].from == "/" && trashed[2].to == "/x")
            _ = try await client.send(.post, "/share/\(record.id)/restore", headers: laptop)
            #expect(try await events(client, "/share/\(record.id)/events", laptop).last?.action == .restored)
            let body = try await client.send(.get, "/share/\(record.id)/events", headers: laptop).text
            #expect(!body.contains("secret"))
            _ = try await client.send(.delete, "/share/\(record.id)?purge=true", headers: laptop)
            #expect(try await client.send(.get, "/share/\(record.id)/events", headers: laptop).status == .notFound, "purge means forget")
        }
    }

    @Test(arguments: Backend.allCases)
    func historiesArePagedLikeListings(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "n0.txt", "size": 1"#)
            for index in 1...4 { _ = try await client.send(.patch, "/share/\(record.id)", #"{"name": "n\#(index).txt"}"#) }
            var uri: String? = "/share/\(record.id)/events?limit=2"
            var all: [ShareEvent] = []
            while let next = uri {
                let response = try await client.send(.get, next)
                all += try response.decode([ShareEvent].self)
                uri = response.headers[HTTPField.Name("Link")!].map { String($0.dropFirst().prefix { $0 != ">" }) }
            }
            #expect(all.map(\.action) == [.created, .renamed, .renamed, .renamed, .renamed])
            #expect(all.map(\.by) == Array(repeating: "local", count: 5), "no tokens: local")
            #expect(try await client.send(.get, "/share/\(record.id)/events?cursor=nope").status == .badRequest)
            #expect(try await client.send(.get, "/share/NOSUCH1/events").status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func importsRecordImportedAndTheirTrash(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let ndjson = #"{"name": "i.txt", "size": 1, "id": "IMP1", "trashedAt": "2021-01-01T00:00:00Z"}"#
            _ = try await client.send(.post, "/share/import", ndjson)
            let history = try await client.send(.get, "/share/IMP1/events").decode([ShareEvent].self)
            #expect(history.map(\.action) == [.imported, .trashed])
            #expect(history.last?.at.description == "2021-01-01T00:00:00.000Z")
        }
    }
}
