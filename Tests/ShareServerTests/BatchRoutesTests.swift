import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport
import StoreTestSupport
import Testing

/// `POST /share/batch`: many records at once, as people select them on the page or name them to `share rm`: all of
/// them changed, each with its event, or none.
@Suite struct BatchRoutesTests {
    private struct Report: Decodable, Equatable {
        let action: String
        let count: Int
    }

    private static func batch(_ client: some TestClientProtocol, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.send(.post, "/share/batch", body, headers: headers)
    }

    @Test(arguments: Backend.allCases)
    func idsAreMovedTrashedRestoredAndPurgedTogetherEachWithItsEvent(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            for id in ["A1", "A2", "A3"] { try await client.create(#""name": "\#(id).pdf", "size": 10, "id": "\#(id)""#) }
            let moved = try await Self.batch(client, #"{"action": "move", "ids": ["A1", "a2"], "folder": "/done/"}"#)
            #expect(try moved.decode(Report.self) == Report(action: "move", count: 2), "\(moved.text)")
            let folders = try await client.send(.get, "/share?folder=%2Fdone").decode([ShareRecord].self).map(\.id).sorted()
            #expect(folders == ["A1", "A2"])
            #expect(try await Self.batch(client, #"{"action": "trash", "ids": ["A1", "A2", "A1"]}"#).decode(Report.self).count == 2)
            #expect(try await client.send(.get, "/share").decode([ShareRecord].self).map(\.id) == ["A3"])
            let events = try await client.send(.get, "/share/A1/events").decode([ShareEvent].self).map(\.action)
            #expect(events == [.created, .moved, .trashed])
            #expect(try await Self.batch(client, #"{"action": "restore", "ids": ["A1"]}"#).decode(Report.self).count == 1)
            #expect(try await Self.batch(client, #"{"action": "purge", "ids": ["A1", "A2", "A3"]}"#).decode(Report.self).count == 3)
            #expect(try await client.send(.get, "/share?trashed=true").text == "[]")
            #expect(try await client.send(.get, "/share").text == "[]")
        }
    }

    @Test(arguments: Backend.allCases)
    func oneMissingIdChangesNothingAndIsNamed(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "kept.pdf", "size": 1, "id": "KEPT""#)
            let response = try await Self.batch(client, #"{"action": "trash", "ids": ["KEPT", "GONE"]}"#)
            #expect(response.status == .notFound)
            #expect(response.problemDetail == "no share with id 'GONE'")
            #expect(try await client.send(.get, "/share").decode([ShareRecord].self).map(\.id) == ["KEPT"], "all or nothing")
            let restored = try await Self.batch(client, #"{"action": "restore", "ids": ["KEPT"]}"#)
            #expect(restored.status == .ok, "restoring a live record changes nothing, as its own request does")
        }
    }

    @Test(arguments: Backend.allCases)
    func aRestorePastTheQuotaRestoresNone(_ backend: Backend) async throws {
        try await withServer({ $0.auth.quotaBytes = 100 }, backend: backend) { client in
            try await client.create(#""name": "a.pdf", "size": 60, "id": "A""#)
            try await client.create(#""name": "b.pdf", "size": 40, "id": "B""#)
            #expect(try await Self.batch(client, #"{"action": "trash", "ids": ["A", "B"]}"#).status == .ok)
            try await client.create(#""name": "c.pdf", "size": 30, "id": "C""#)
            let refused = try await Self.batch(client, #"{"action": "restore", "ids": ["A", "B"]}"#)
            #expect(refused.status == .forbidden)
            #expect(refused.problemDetail.hasPrefix("this would pass the quota of 100 B (100 bytes): "), "\(refused.text)")
            #expect(try await client.send(.get, "/share").decode([ShareRecord].self).map(\.id) == ["C"], "none came back")
            #expect(try await Self.batch(client, #"{"action": "restore", "ids": ["A"]}"#).status == .ok, "one fits")
        }
    }

    @Test(arguments: Backend.allCases)
    func aListingsFiltersNameEveryRecordTheyMatchOnEveryPage(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            for index in 0..<150 { try await client.create(#""name": "report \#(index).pdf", "size": 1"#) }
            try await client.create(#""name": "photo.jpg", "size": 1"#)
            let trashed = try await Self.batch(client, #"{"action": "trash", "filter": "q=REPORT&type=pdf"}"#)
            #expect(try trashed.decode(Report.self).count == 150)
            #expect(try await client.send(.get, "/share").decode([ShareRecord].self).map(\.name) == ["photo.jpg"])
            // A restore by filters acts on the trash.
            #expect(try await Self.batch(client, #"{"action": "restore", "filter": "q=%22report 1%22"}"#).decode(Report.self).count == 61)
        }
    }

    @Test(arguments: [
        (#"{"ids": ["A"]}"#, "field 'action' is required: move, trash, restore or purge"),
        (#"{"action": "shred", "ids": ["A"]}"#, "field 'action' must be move, trash, restore or purge, got 'shred'"),
        (#"{"action": "move", "ids": ["A"]}"#, "field 'folder' is required to move"),
        (#"{"action": "move", "ids": ["A"], "folder": "/a/../b"}"#, "field 'folder'"),
        (#"{"action": "trash"}"#, "field 'ids' or 'filter' names the shares, one of the two"),
        (#"{"action": "trash", "ids": ["A"], "filter": "q=a"}"#, "field 'ids' or 'filter' names the shares, one of the two"),
        (#"{"action": "trash", "ids": []}"#, "field 'ids' must name at least one share"),
        (#"{"action": "trash", "filter": "date=2021-13-01"}"#, "field 'filter' parameter 'date'"),
        (#"{"action": "trash", "filter": "q=a&limit=5"}"#, "field 'filter' acts on every share it matches: it takes no limit or cursor"),
    ])
    func aBadBatchIsAProblemNamingItsField(body: String, detail: String) async throws {
        try await withServer { client in
            let response = try await Self.batch(client, body)
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.hasPrefix(detail), "\(response.problemDetail)")
        }
    }

    @Test(arguments: Backend.allCases)
    func aRecordWhoseIdIsBatchIsStillReachableAndOthersTakeNoPost(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "b.pdf", "size": 1, "id": "batch""#)
            #expect(try await client.send(.get, "/share/batch").status == .ok)
            #expect(try await client.send(.patch, "/share/batch", #"{"name": "c.pdf"}"#).status == .ok)
            let post = try await client.send(.post, "/share/OTHER", "{}")
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "GET, PATCH, DELETE")
            let put = try await client.send(.put, "/share/batch", "{}")
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "POST", "the batch's one documented method")
            #expect(try await client.send(.delete, "/share/batch").status == .noContent)
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherUsersIdIsNotFoundAndTheirRecordsAreUntouched(_ backend: Backend) async throws {
        let (bob, carol) = (TwoUsers.bob, TwoUsers.carol)
        try await withServer(TwoUsers.configure, backend: backend) { client in
            #expect(try await client.send(.post, "/share", #"{"name": "bob.pdf", "size": 5, "id": "BOB-1"}"#, headers: bob).status == .created)
            let theirs = try await Self.batch(client, #"{"action": "purge", "ids": ["BOB-1"]}"#, headers: carol)
            #expect(theirs.status == .notFound)
            #expect(try await Self.batch(client, #"{"action": "purge", "filter": ""}"#, headers: carol).decode(Report.self).count == 0)
            #expect(try await client.send(.get, "/share/BOB-1", headers: bob).status == .ok)
        }
    }
}
