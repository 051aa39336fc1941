import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

@Suite struct ShareRoutesTests {
    @Test(arguments: Backend.allCases)
    func theMobileClientGetsABareArrayOfNameIdAndCreatedAt(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            #expect(try await client.send(.get, "/share").text == "[]")
            try await client.create(#""name": "photo.jpg", "size": 10, "createdAt": "2021-01-17T20:40:00+08:00""#)
            let response = try await client.send(.get, "/share")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let rows = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]]
            #expect(rows?.count == 1)
            #expect(rows?.first?["name"] as? String == "photo.jpg")
            #expect((rows?.first?["id"] as? String)?.count == 8)
            #expect(rows?.first?["createdAt"] as? String == "2021-01-17T12:40:00.000Z")
        }
    }

    @Test(arguments: Backend.allCases)
    func creatingAnswers201WithALocationAndTheRecord(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let response = try await client.send(
                .post, "/share", #"{"name": "Q1 report.PDF", "size": 2048, "folder": "/reports/2021", "type": "video"}"#)
            #expect(response.status == .created)
            let record = try response.decode(ShareRecord.self)
            #expect(response.headers[.location] == "/share/\(record.id)")
            #expect(record.type == .pdf, "the type comes from the name, never from the client")
            #expect(record.folder == "/reports/2021")
            #expect(response.text.contains(#""folder":"/reports/2021""#), "slashes are not escaped")
        }
    }

    @Test(arguments: Backend.allCases)
    func recordsAreFoundByIdInAnyCase(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "a.txt", "size": 1"#)
            let response = try await client.send(.get, "/share/\(record.id.lowercased())")
            #expect(try response.decode(ShareRecord.self) == record, "\(response.text) \(record)")
            let missing = try await client.send(.get, "/share/NOSUCHID")
            #expect(missing.status == .notFound)
            #expect(missing.problemDetail.contains("NOSUCHID"))
            #expect(try await client.send(.get, "/share/bad%20id").status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func patchRenamesMovesAndRederivesTheType(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "draft.txt", "size": 1"#)
            let renamed = try await client.send(.patch, "/share/\(record.id)", #"{"name": "final.docx"}"#)
            #expect(try renamed.decode(ShareRecord.self).type == .doc)
            let moved = try await client.send(.patch, "/share/\(record.id)", #"{"folder": "/archive/"}"#)
            #expect(try moved.decode(ShareRecord.self).folder == "/archive")
            #expect(try moved.decode(ShareRecord.self).name == "final.docx")
            let empty = try await client.send(.patch, "/share/\(record.id)", "{}")
            #expect(empty.status == .badRequest)
            #expect(empty.problemDetail.contains("name") && empty.problemDetail.contains("folder"))
            #expect(try await client.send(.patch, "/share/NOSUCHID", #"{"name": "x.txt"}"#).status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteTrashesThenRestoreAndPurgeWork(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "old.zip", "size": 1"#)
            #expect(try await client.send(.delete, "/share/\(record.id)").status == .noContent)
            #expect(try await client.send(.get, "/share/\(record.id)").status == .notFound)
            #expect(try await client.send(.patch, "/share/\(record.id)", #"{"name": "x.zip"}"#).status == .notFound)
            #expect(try await client.send(.delete, "/share/\(record.id)").status == .notFound)
            #expect(try await client.send(.get, "/share").text == "[]")
            let trashed = try await client.send(.get, "/share/\(record.id)?trashed=true")
            #expect(try trashed.decode(ShareRecord.self).trashedAt != nil)
            #expect(try await client.send(.get, "/share?trashed=true").decode([ShareRecord].self).map(\.id) == [record.id])

            let restored = try await client.send(.post, "/share/\(record.id)/restore")
            #expect(try restored.decode(ShareRecord.self) == record, "\(restored.text) \(record)")
            let badFlag = try await client.send(.delete, "/share/\(record.id)?purge=true&trashed=maybe")
            #expect(badFlag.status == .badRequest, "every parameter is checked, even one this request does not need")
            #expect(try await client.send(.delete, "/share/\(record.id)?purge=true").status == .noContent)
            #expect(try await client.send(.get, "/share/\(record.id)?trashed=true").status == .notFound)
            #expect(try await client.send(.delete, "/share/\(record.id)?purge=true").status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func anImportedIdIsKeptAndCannotBeTakenTwice(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let record = try await client.create(#""name": "a.txt", "size": 1, "id": "legacy-7""#)
            #expect(record.id == "legacy-7")
            let again = try await client.send(.post, "/share", #"{"name": "b.txt", "size": 1, "id": "LEGACY-7"}"#)
            #expect(again.status == .conflict)
            #expect(again.problemDetail.contains("LEGACY-7"))
        }
    }

    @Test(arguments: [
        (#"{"size": 1}"#, "'name'"), (#"{"name": 7, "size": 1}"#, "'name'"), (#"{"name": "a/b", "size": 1}"#, "'name'"),
        (#"{"name": "..", "size": 1}"#, "'name'"), (#"{"name": "esc\u001b[2J", "size": 1}"#, "'name'"),
        (#"{"name": " x", "size": 1}"#, "'name'"), (#"{"name": "a.txt"}"#, "'size'"), (#"{"name": "a.txt", "size": -1}"#, "'size'"),
        (#"{"name": "a.txt", "size": 1.5}"#, "'size'"), (#"{"name": "a.txt", "size": "12"}"#, "'size'"),
        (#"{"name": "a.txt", "size": 9223372036854775808}"#, "'size'"), (#"{"name": "a.txt", "size": 1, "folder": "rel"}"#, "'folder'"),
        (#"{"name": "a.txt", "size": 1, "createdAt": "yesterday"}"#, "'createdAt'"),
        (#"{"name": "a.txt", "size": 1, "id": "stats"}"#, "'id'"), (#"{"name": "a.txt", "size": 1, "id": "a b"}"#, "'id'"),
        (#"{"name": "a.txt", "#, "JSON"), (#"[{"name": "a.txt", "size": 1}]"#, "object"), ("", "JSON"),
    ])
    func invalidBodiesAre400ProblemsNamingTheField(body: String, named: String) async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/share", body)
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.contains(named), "\(response.text)")
            #expect(try await client.send(.get, "/share").text == "[]", "nothing was stored")
        }
    }

    @Test(arguments: Backend.allCases)
    func bodiesAboveTheLimitAre413(_ backend: Backend) async throws {
        try await withServer({ $0.server.maxBodyBytes = 64 }, backend: backend) { client in
            let name = String(repeating: "a", count: 100) + ".txt"
            let response = try await client.send(.post, "/share", #"{"name": "\#(name)", "size": 1}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.headers[.contentType] == ProblemDetails.mediaType)
        }
    }

    @Test(arguments: Backend.allCases)
    func unknownRoutesAreProblemsToo(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let response = try await client.send(.get, "/nope")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == ProblemDetails.mediaType)
        }
    }

    @Test(arguments: Backend.allCases)
    func unsupportedMethodsAre405WithTheAllowedOnes(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let put = try await client.send(.put, "/share/ABCD1234", "{}")
            #expect(put.status == .methodNotAllowed)
            #expect(put.headers[.allow] == "GET, PATCH, DELETE")
            #expect(try await client.send(.delete, "/share").headers[.allow] == "GET, POST")
            #expect(try await client.send(.head, "/share").status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func healthAndReadiness(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let health = try await client.send(.get, "/healthz")
            let readiness = try await client.send(.get, "/readyz")
            #expect(health.text == "{\"status\":\"ok\"}")
            #expect(readiness.text == "{\"status\":\"ok\"}")
        }
    }
}

@Suite struct DocumentRoutesTests {
    @Test(arguments: Backend.allCases)
    func theServedOpenAPIDocumentIsTheRepositorysFile(_ backend: Backend) async throws {
        let repositoryFile = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../openapi.yaml").standardized
        let expected = try String(contentsOf: repositoryFile, encoding: .utf8)
        try await withServer({ $0.auth.tokens = ["s3cret"] }, backend: backend) { client in
            let response = try await client.send(.get, "/openapi.yaml")
            #expect(response.status == .ok, "open without a token")
            #expect(response.text == expected)
        }
    }
}
