import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport
import StoreTestSupport
import Testing

/// `histories = "per-user"` over HTTP: alice neither reads, changes nor detects bob's records through any endpoint;
/// an admin acts on another's history with `?user=`, and a quota refuses what would pass it with a problem of its own.
@Suite struct HistoryRoutesTests {
    private static func perUser(_ config: inout ShareConfig) {
        config.auth.users = ["alice": ["alice-secret"], "bob": ["bob-secret"], "carol": ["carol-secret"]]
        config.auth.admins = ["alice"]
        config.auth.histories = .perUser
        config.auth.quotaBytes = 100
        config.auth.quotas = ["bob": 1_000_000]
    }

    private static let alice: HTTPFields = [.authorization: "Bearer alice-secret"]
    private static let bob: HTTPFields = [.authorization: "Bearer bob-secret"]
    private static let carol: HTTPFields = [.authorization: "Bearer carol-secret"]

    @Test(arguments: Backend.allCases)
    func anotherUsersRecordIsAnsweredExactlyAsOneThatDoesNotExist(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            let bobs = try await client.send(.post, "/share", #"{"name": "bob.pdf", "size": 5, "id": "BOB-1"}"#, headers: Self.bob)
            #expect(bobs.status == .created)
            for (method, suffix, body) in [
                (HTTPRequest.Method.get, "", nil), (.patch, "", #"{"name": "mine.pdf"}"#), (.delete, "", nil), (.delete, "?purge=true", nil),
                (.post, "/restore", nil), (.get, "/events", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let theirs = try await client.send(method, "/share/BOB-1\(suffix)", body, headers: Self.carol)
                let nobodys = try await client.send(method, "/share/NOBODY\(suffix)", body, headers: Self.carol)
                #expect(theirs.status == .notFound, "\(method) \(suffix)")
                #expect(theirs.text.replacingOccurrences(of: "BOB-1", with: "NOBODY") == nobodys.text, "\(method) \(suffix)")
            }
            let listing = try await client.send(.get, "/share", headers: Self.carol)
            #expect(listing.text == "[]")
            // A cursor from bob's listing continues carol's own, which holds nothing.
            let second = try await client.send(.post, "/share", #"{"name": "bob2.pdf", "size": 5, "id": "BOB-2"}"#, headers: Self.bob)
            #expect(second.status == .created, "\(second.text)")
            let bobsPage = try await client.send(.get, "/share?limit=1", headers: Self.bob)
            let link = try #require(bobsPage.headers[.init("Link")!], "\(bobsPage.headers)")
            let next = try #require(link.firstRange(of: "/share?").map { link[$0.lowerBound...].prefix { $0 != ">" } })
            #expect(try await client.send(.get, String(next), headers: Self.carol).text == "[]")
            let stats = try await client.send(.get, "/share/stats", headers: Self.carol).decode(ShareStats.self)
            #expect(stats.count == 0 && stats.quotaBytes == 100)
            let export = try await client.send(.get, "/share/export?trashed=include", headers: Self.carol)
            #expect(export.status == .ok && export.text.isEmpty)
            let still = try await client.send(.get, "/share/BOB-1", headers: Self.bob).decode(ShareRecord.self)
            #expect(still.name == "bob.pdf", "bob's record is as he left it")
        }
    }

    @Test(arguments: Backend.allCases)
    func aCachedListingOfOneUserIsNeverAnothersCurrentOne(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            let bobs = try await client.send(.get, "/share", headers: Self.bob)
            let tag = try #require(bobs.headers[.eTag])
            var asCarol = Self.carol
            asCarol[.ifNoneMatch] = tag
            #expect(try await client.send(.get, "/share", headers: asCarol).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCreateOrImportPastTheQuotaIsAProblemOfItsOwnNamingQuotaAndUse(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            #expect(try await client.send(.post, "/share", #"{"name": "a.zip", "size": 60}"#, headers: Self.carol).status == .created)
            let refused = try await client.send(.post, "/share", #"{"name": "b.zip", "size": 41}"#, headers: Self.carol)
            #expect(refused.status == .forbidden)
            let problem = try refused.decode(ProblemDetails.self)
            #expect(problem.type == "quota-exceeded" && problem.detail.contains("100 bytes") && problem.detail.contains("60 bytes"))
            let lines = (1...3).map { #"{"name": "part\#($0).zip", "size": 15}"# }.joined(separator: "\n")
            var headers = Self.carol
            headers[.contentType] = "application/x-ndjson"
            let importing = try await client.send(.post, "/share/import", lines, headers: headers)
            #expect(importing.status == .forbidden && importing.text.contains("quota-exceeded"), "\(importing.text)")
            var me = try await client.send(.get, "/me", headers: Self.carol).decode(UserInfo.self)
            me.feedUrl = nil
            #expect(
                me
                    == UserInfo(
                        user: "carol", admin: false, histories: "per-user", usedBytes: 60, quotaBytes: 100, filesBytes: 0, signedInWith: "token",
                        trashDays: 30))
            #expect(try await client.send(.post, "/share", #"{"name": "b.zip", "size": 900}"#, headers: Self.bob).status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAdminActsOnAnotherUsersHistoryAndItsEventsNameBoth(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            for number in 1...3 {
                _ = try await client.send(.post, "/share", #"{"name": "bob\#(number).pdf", "size": 1, "id": "BOB-\#(number)"}"#, headers: Self.bob)
            }
            #expect(try await client.send(.get, "/share", headers: Self.alice).text == "[]", "alice's own history is empty")
            let page = try await client.send(.get, "/share?user=bob&limit=2", headers: Self.alice)
            #expect(try page.decode([ShareRecord].self).count == 2)
            #expect(page.headers[.init("Link")!]?.contains("user=bob") == true, "the next page stays in bob's history")
            let renamed = try await client.send(.patch, "/share/BOB-1?user=bob", #"{"name": "renamed.pdf"}"#, headers: Self.alice)
            #expect(renamed.status == .ok)
            let events = try await client.send(.get, "/share/BOB-1/events", headers: Self.bob).decode([ShareEvent].self)
            #expect(events.last?.by == "alice for bob")
            let users = try await client.send(.get, "/users", headers: Self.alice).decode([UserUsage].self)
            #expect(users == [UserUsage(user: "bob", count: 3, bytes: 3)])
        }
    }

    /// Any `user` an admin or anyone else sends is a user's history, a 400 naming the parameter, a 404 naming a user
    /// nobody signs in as, or (from someone who is not an admin) a 403: never a 500, never the wrong history.
    @Test(arguments: Backend.allCases)
    func anyUserParameterIsAHistoryOrAClearRefusal(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            var generator = SplitMix(seed: 19)
            for _ in 0..<300 {
                let value = generator.hostileText(maxPieces: 4)
                let query = FormEncoding.encode([("user", value)])
                let asAdmin = try await client.send(.get, "/share/stats?\(query)", headers: Self.alice)
                let valid = Credential.isUserName(value) && !Credential.isReserved(value)
                let known = ["alice", "bob", "carol"].contains(value)
                #expect(asAdmin.status == (!valid ? .badRequest : known ? .ok : .notFound), "\(value.debugDescription): \(asAdmin.text)")
                if !valid { #expect(asAdmin.problemDetail.contains("parameter 'user'"), "\(value.debugDescription)") }
                let asBob = try await client.send(.get, "/share/stats?\(query)", headers: Self.bob)
                let expected: HTTPResponse.Status = !valid ? .badRequest : value == "bob" ? .ok : .forbidden
                #expect(asBob.status == expected, "\(value.debugDescription): \(asBob.text)")
            }
        }
    }

    @Test func anAdminExportsEveryHistoryWithItsOwnerAndAssignsNobodysRecords() async throws {
        let folder = try temporaryFolder("histories")
        let database = try SQLiteStore(path: folder.appending(path: "share.db").path)
        _ = try await database.sharedHistory.createShare(try NewShare(id: "OLD-1", name: "from before.pdf", folder: nil, createdAt: nil, size: 2))
        try await withServer(Self.perUser, store: database) { client in
            _ = try await client.send(.post, "/share", #"{"name": "bob.pdf", "size": 5, "id": "BOB-1"}"#, headers: Self.bob)
            let export = try await client.send(.get, "/share/export?everyone=true", headers: Self.alice)
            let owners = export.text.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .map { $0?["owner"] as? String }
            #expect(owners == ["", "bob"], "\(export.text)")
            #expect(try await client.send(.get, "/share/export?everyone=true", headers: Self.bob).status == .forbidden)
            #expect(try await client.send(.post, "/users/carol/assign", headers: Self.bob).status == .forbidden)
            let assigned = try await client.send(.post, "/users/carol/assign", headers: Self.alice)
            #expect(assigned.status == .ok && assigned.text == #"{"assigned":1}"#, "\(assigned.text)")
            let carols = try await client.send(.get, "/share/OLD-1", headers: Self.carol)
            #expect(carols.status == .ok, "nobody's record is carol's now")
        }
    }

    @Test(arguments: Backend.allCases)
    func onlyAdminsNameAnotherUserAndOnlyUnderPerUserHistories(_ backend: Backend) async throws {
        try await withServer(Self.perUser, backend: backend) { client in
            let notAdmin = try await client.send(.get, "/share?user=alice", headers: Self.bob)
            #expect(notAdmin.status == .forbidden && notAdmin.problemDetail.contains("only admins"))
            #expect(try await client.send(.get, "/users", headers: Self.bob).status == .forbidden)
            let badName = try await client.send(.get, "/share?user=no%20such", headers: Self.alice)
            #expect(badName.status == .badRequest && badName.problemDetail.contains("parameter 'user'"))
            for (method, body) in [(HTTPRequest.Method.get, nil), (.post, #"{"name": "a.txt", "size": 1}"#)] {
                let nobody = try await client.send(method, "/share?user=dave", body, headers: Self.alice)
                #expect(nobody.status == .notFound && nobody.problemDetail.contains("no user 'dave'"), "no history for a name nobody signs in as")
            }
            #expect(try await !client.send(.get, "/users", headers: Self.alice).text.contains("dave"))
        }
        try await withServer(
            {
                $0.auth.users = ["alice": ["alice-secret"]]
                $0.auth.admins = ["alice"]
            }, backend: backend
        ) { client in
            let shared = try await client.send(.get, "/share?user=bob", headers: Self.alice)
            #expect(shared.status == .badRequest && shared.problemDetail.contains("histories are shared"))
        }
    }
}
