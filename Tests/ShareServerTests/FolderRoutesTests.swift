import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

/// `GET /share/folders?parent=`: the folders a person browses on the page and with `share folders`.
@Suite struct FolderRoutesTests {
    @Test(arguments: Backend.allCases)
    func aFoldersSubfoldersComeWithTheirCountsAndBytes(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "a.pdf", "size": 10, "folder": "/reports/2021""#)
            try await client.create(#""name": "b.pdf", "size": 5, "folder": "/reports/2022/q1""#)
            try await client.create(#""name": "c.pdf", "size": 1, "folder": "/photos""#)
            let top = try await client.send(.get, "/share/folders")
            #expect(top.status == .ok)
            #expect(
                top.text == #"[{"bytes":1,"count":1,"folder":"/photos","name":"photos"},{"bytes":15,"count":2,"folder":"/reports","name":"reports"}]"#
            )
            let reports = try await client.send(.get, "/share/folders?parent=%2Freports%2F")
            #expect(try reports.decode([FolderUsage].self).map(\.folder) == ["/reports/2021", "/reports/2022"], "the parent is normalised")
            let tag = try #require(reports.headers[.eTag], "cached like the other reads")
            #expect(try await client.send(.get, "/share/folders?parent=%2Freports%2F", headers: [.ifNoneMatch: tag]).status == .notModified)
            try await client.create(#""name": "d.pdf", "size": 1, "folder": "/reports/2023""#)
            #expect(try await client.send(.get, "/share/folders?parent=%2Freports%2F", headers: [.ifNoneMatch: tag]).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func aBadParentIsA400NamingIt(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            for parent in ["reports", "%2Fa%2F..%2Fb", "%2F%00"] {
                let response = try await client.send(.get, "/share/folders?parent=\(parent)")
                #expect(response.status == .badRequest, "\(parent): \(response.text)")
                #expect(response.problemDetail.contains("'parent'"), "\(parent): \(response.problemDetail)")
            }
            #expect(try await client.send(.post, "/share/folders", "{}").headers[.allow] == "GET")
        }
    }

    @Test(arguments: Backend.allCases)
    func eachPersonSeesTheFoldersOfTheirOwnHistory(_ backend: Backend) async throws {
        try await withServer(TwoUsers.configure, backend: backend) { client in
            try await client.send(.post, "/share", #"{"name": "b.pdf", "size": 1, "folder": "/bob"}"#, headers: TwoUsers.bob)
            try await client.send(.post, "/share", #"{"name": "c.pdf", "size": 1, "folder": "/carol"}"#, headers: TwoUsers.carol)
            let bobs = try await client.send(.get, "/share/folders", headers: TwoUsers.bob).decode([FolderUsage].self)
            #expect(bobs.map(\.folder) == ["/bob"])
            #expect(try await client.send(.get, "/share/folders").status == .unauthorized)
        }
    }
}
