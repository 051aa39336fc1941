import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

/// `GET /me`: whom the server takes the caller to be, what their history holds, and whether they are an admin —
/// what `share whoami` prints and the page shows beside *Sign out*.
@Suite struct UserRoutesTests {
    @Test(arguments: Backend.allCases)
    func withNoSignInEveryCallerIsLocalAndSeesTheBytesOfTheLiveHistory(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "a.pdf", "size": 3"#)
            let trashed = try await client.create(#""name": "b.pdf", "size": 4000"#)
            _ = try await client.send(.delete, "/share/\(trashed.id)")
            try await client.create(#""name": "c.pdf", "size": 4"#)
            var me = try await client.send(.get, "/me").decode(UserInfo.self)
            #expect(me.feedUrl?.hasSuffix(".atom") == true && me.disabledHooks == nil)
            me.feedUrl = nil
            #expect(me == UserInfo(user: "local", admin: false, histories: "shared", usedBytes: 7, filesBytes: 0, trashDays: 30))
        }
    }

    @Test(arguments: Backend.allCases)
    func theServicesLinkPatternIsPassedOnForThePageToCopy(_ backend: Backend) async throws {
        try await withServer({ $0.server.shareURL = "https://files.example.org/s/{id}" }, backend: backend) { client in
            let me = try await client.send(.get, "/me").decode(UserInfo.self)
            #expect(me.shareUrl == "https://files.example.org/s/{id}")
            #expect(me.link(to: "7K2M9QDX") == "https://files.example.org/s/7K2M9QDX")
        }
    }

    /// Read from the running totals, exact where a sum of sizes passes 64 bits (it was a 500 when SQLite summed).
    @Test(arguments: Backend.allCases)
    func theBytesUsedStayExactBeyond64Bits(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "a.bin", "size": 9223372036854775807"#)
            try await client.create(#""name": "b.bin", "size": 9223372036854775807"#)
            let me = try await client.send(.get, "/me").decode(UserInfo.self)
            #expect(me.usedBytes == Decimal(string: "18446744073709551614"))
        }
    }

    @Test(arguments: Backend.allCases)
    func aTokenNamesItsUserAndAdminsAreSaidToBe(_ backend: Backend) async throws {
        try await withServer(
            {
                $0.auth.users = ["alice": ["alice-secret"], "bob": ["bob-secret"]]
                $0.auth.admins = ["alice"]
                $0.auth.signOutURL = "/oauth2/sign_out"
            }, backend: backend
        ) { client in
            var alice = try await client.send(.get, "/me", headers: [.authorization: "Bearer alice-secret"]).decode(UserInfo.self)
            #expect(alice.feedUrl?.hasPrefix("/feed/") == true, "the history's feed, for whoever signed in")
            alice.feedUrl = nil
            #expect(
                alice == UserInfo(user: "alice", admin: true, histories: "shared", usedBytes: 0, filesBytes: 0, signedInWith: "token", trashDays: 30))
            let bob = try await client.send(.get, "/me", headers: [.authorization: "Bearer bob-secret"]).decode(UserInfo.self)
            #expect(bob.user == "bob" && !bob.admin && bob.signOutUrl == nil, "the proxy's sign-out is for proxy sign-in only")
            let nobody = try await client.send(.get, "/me")
            #expect(nobody.status == .unauthorized && nobody.headers[.wwwAuthenticate] == #"Bearer realm="share""#)
        }
    }

    /// The metrics count every history's records and requests: under per-user histories a user who is not an admin
    /// is refused them (unless they are public, for a scraper on a private network).
    @Test(arguments: [false, true])
    func underPerUserHistoriesOnlyAdminsReadTheMetricsUnlessTheyArePublic(_ metricsPublic: Bool) async throws {
        try await withServer({
            $0.auth.users = ["alice": ["alice-secret"], "bob": ["bob-secret"]]
            $0.auth.admins = ["alice"]
            $0.auth.histories = .perUser
            $0.server.metricsPublic = metricsPublic
        }) { client in
            let bob = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer bob-secret"])
            #expect(bob.status == (metricsPublic ? .ok : .forbidden))
            let alice = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer alice-secret"])
            #expect(alice.status == .ok, "admins read them")
        }
    }

    @Test(arguments: Backend.allCases)
    func aPublicReadNamesNobodyButAWrongTokenIsStillRefused(_ backend: Backend) async throws {
        try await withServer(
            {
                $0.auth.users = ["alice": ["alice-secret"]]
                $0.auth.publicRead = true
            }, backend: backend
        ) { client in
            let anonymous = try await client.send(.get, "/me")
            #expect(anonymous.status == .ok && anonymous.text.contains(#""user":null"#), "\(anonymous.text)")
            #expect(try await client.send(.get, "/share", headers: [.authorization: "Bearer stale"]).status == .unauthorized)
            #expect(try await client.send(.post, "/share", #"{"name": "a.pdf", "size": 1}"#).status == .unauthorized)
        }
    }
}
