import Foundation
import ShareClient
import Testing

@testable import ShareCLI

@Suite struct ErrorTests {
    @Test func anUnreachableServerIsNamedWithAHint() throws {
        let transport = FakeTransport()
        transport.on("GET", "\(server)/share", fail: .unreachable(reason: "Connection refused"))
        let run = try runShare(["ls"], transport: transport)
        #expect(run.exitStatus == 3)
        #expect(run.failure?.contains(server) == true)
        #expect(run.failure?.contains("is shared running?") == true)
    }

    @Test func aServerThatTakesTheConnectionButNeverAnswersIsNotCalledUnreachable() throws {
        let transport = FakeTransport()
        transport.on("GET", "\(server)/share", fail: .noAnswer(reason: "Operation timed out after 60000 milliseconds"))
        let run = try runShare(["ls"], transport: transport)
        #expect(run.exitStatus == 7)
        #expect(run.failure?.contains("did not answer in time") == true)
    }

    @Test func aRefusedTokenSaysSo() throws {
        let run = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", status: 401, body: "{}"))
        #expect(run.exitStatus == 4)
        #expect(run.failure?.contains("refused the token") == true)
    }

    @Test func aQuotaReachedSaysWhatIsUsedNotThatTheTokenWasRefused() throws {
        let problem =
            #"{"type":"quota-exceeded","title":"Forbidden","status":403,"detail":"this would pass the quota of 100 bytes: 90 bytes are used; trash or delete shares to make room"}"#
        let run = try runShare(
            ["restore", "7K2M9QDX"], transport: FakeTransport().on("POST", "\(server)/share/7K2M9QDX/restore", status: 403, body: problem))
        #expect(run.exitStatus == 4)
        #expect(run.failure == "this would pass the quota of 100 bytes: 90 bytes are used; trash or delete shares to make room")
    }

    @Test func anUnknownIdIsNamed() throws {
        let run = try runShare(["show", "NOPE1234"], transport: FakeTransport().on("GET", "\(server)/share/NOPE1234", status: 404))
        #expect(run.exitStatus == 5)
        #expect(run.failure == "no share with id 'NOPE1234'")
    }

    @Test func aRejectedRequestShowsTheServersDetail() throws {
        let problem = #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"field 'name' must not contain '/'"}"#
        let run = try runShare(
            ["rename", "7K2M9QDX", "a/b"], transport: FakeTransport().on("PATCH", "\(server)/share/7K2M9QDX", status: 400, body: problem))
        #expect(run.exitStatus == 6)
        #expect(run.failure == "field 'name' must not contain '/'")
    }

    @Test func serverFailuresRedirectsAndGarbageAreReported() throws {
        let failed = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", status: 502, body: "Bad Gateway"))
        #expect(failed.exitStatus == 1)
        #expect(failed.failure?.contains("502") == true)
        let moved = try runShare(
            ["ls"], transport: FakeTransport().on("GET", "\(server)/share", status: 301, headers: ["location": "https://elsewhere/share"]))
        #expect(moved.exitStatus == 1)
        #expect(moved.failure?.contains("https://elsewhere/share") == true)
        let garbage = try runShare(["ls"], transport: FakeTransport().on("GET", "\(server)/share", body: "<html>hello</html>"))
        #expect(garbage.exitStatus == 1)
        #expect(garbage.failure?.contains("not a share API answer") == true)
    }

    @Test func usageErrorsNeverReachTheServer() throws {
        for arguments in [
            ["ls", "--date", "2021-02-30"], ["ls", "--date", "2021-01-17", "--from", "2021-01-01"], ["ls", "--limit", "0"],
            ["ls", "--limit", "5", "--all"], ["ls", "reports"], ["add", "a.pdf", "b.pdf", "--name", "x.pdf"], ["ls", "--tz", "Mars/Base"],
            ["sort", "--by", "colour"], ["ls", "--color", "sometimes"],
        ] {
            let run = try runShare(arguments, transport: FakeTransport())
            #expect(run.exitStatus == 64, "\(arguments): \(run.failure ?? "")")
        }
    }

    @Test func badConfigurationIsItsOwnFailure() throws {
        let run = try runShare(["ls"], transport: FakeTransport(), environment: ["SHARE_SERVER": "ftp://nowhere"])
        #expect(run.exitStatus == 78)
        #expect(run.failure?.contains("SHARE_SERVER") == true)
    }
}
