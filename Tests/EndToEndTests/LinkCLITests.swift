import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// A share's link with the real binaries: `share add` prints a link and a code that a recipient opens with no
/// token, `share expire`, `share revoke` and `share message` change it, and the recipient meets what they say.
@Suite(.serialized) struct LinkCLITests {
    private static let drive = "https://drive.example.com/s/abc"

    @Test func aLinkPrintedByAddOpensForItsCodeAndClosesAfterItsDownload() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_TOKENS": "owner-secret"])
        let file = folder.appending(path: "plan.pdf")
        try Data(count: 1200).write(to: file)
        let owner = ["SHARE_TOKEN": "owner-secret"]
        let added = try share(
            ["add", file.path, "--source", Self.drive, "--code", "Open42", "--max-downloads", "1"], server: daemon.address, environment: owner)
        #expect(added.status == 0, "\(added.stderr)")
        let lines = added.stdout.split(separator: "\n").map(String.init)
        let id = try #require(lines.first?.split(separator: " ").first.map(String.init))
        let link = try #require(lines.first { $0.hasPrefix("  link: ") }.map { String($0.dropFirst("  link: ".count)) })
        #expect(link.hasPrefix(daemon.address + "/s/") && lines.contains("  code: Open42"), "\(added.stdout)")

        let asking = try await http("GET", link)
        #expect(asking.status == 200 && asking.body.contains(#"name="code""#) && !asking.body.contains("plan.pdf"), "nothing shows before the code")
        #expect(try await http("GET", link + "/file?code=Wrong1", followingRedirects: false).status == 403)
        let opened = try await http("GET", link + "?code=Open42")
        #expect(opened.status == 200 && opened.body.contains("plan.pdf") && opened.body.contains("/file?code=Open42"))
        let file1 = try await http("GET", link + "/file?code=Open42", followingRedirects: false)
        #expect(file1.status == 302 && file1.headers["location"] == Self.drive)
        #expect(try await http("GET", link + "/file?code=Open42", followingRedirects: false).status == 410, "its one download is made")

        let shown = try share(["show", id], server: daemon.address, environment: owner)
        #expect(shown.stdout.contains("  state:   expired, 1 download (1 downloads at most)"), "\(shown.stdout)")
        let downloads = try share(["downloads", id], server: daemon.address, environment: owner)
        let rows = downloads.stdout.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].contains("127.0.0.0") && rows[1].hasSuffix("whole"), "the network, never the address: \(downloads.stdout)")
        let unasked = try share(["revoke", id], server: daemon.address, environment: owner)
        #expect(unasked.status != 0 && unasked.stderr.contains("--yes"), "a script says --yes: \(unasked.stderr)")
        #expect(try await http("GET", link + "?code=Open42").status == 410, "still only spent, not revoked")
        #expect(try share(["revoke", id, "--yes"], server: daemon.address, environment: owner).status == 0)
        #expect(try await http("GET", link).body.contains("Its owner stopped sharing it."))
        let log = try share(["log", id], server: daemon.address, environment: owner)
        #expect(log.stdout.contains("revoked"), "\(log.stdout)")
        #expect(daemon.stop() == 0)
        let logged = try String(contentsOf: daemon.log, encoding: .utf8)
        #expect(logged.contains("/s/") && !logged.contains("Open42") && !logged.contains("Wrong1"), "codes never reach the log")
        let token = String(link.split(separator: "/").last ?? "")
        #expect(token.count == 22 && !logged.contains(token), "nor do links' tokens whole")
    }

    @Test func expireMovesTheEndOfALinkAndAPastEndClosesIt() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "plan.pdf")
        try Data(count: 10).write(to: file)
        let added = try share(["add", "--json", file.path, "--source", Self.drive, "--expires", "7d"], server: daemon.address)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let week = try #require(record.expiresAt).millisecondsSinceEpoch - record.createdAt.millisecondsSinceEpoch
        #expect(abs(week - 7 * 86_400_000) < 60_000, "seven days from now")
        let link = daemon.address + (record.link ?? "")
        #expect(try share(["expire", record.id, "--at", "2020-01-01"], server: daemon.address).status == 0)
        #expect(try await http("GET", link).status == 410)
        let never = try share(["expire", record.id, "--never"], server: daemon.address)
        #expect(never.stdout.contains("opens with no end date"), "\(never.stdout)")
        #expect(try await http("GET", link).status == 200)
        let neither = try share(["expire", record.id], server: daemon.address)
        #expect(neither.status == 64 && neither.stderr.contains("--in, --at and --never"))
        let bad = try share(["add", file.path, "--expires", "soon"], server: daemon.address)
        #expect(bad.status == 64 && bad.stderr.contains("'soon'"), "\(bad.stderr)")
        #expect(daemon.stop() == 0)
    }

    /// The owner names themself and writes a message with an upload; the recipient's page greets with both, `share show`
    /// prints them, and `share message` changes or removes them.
    @Test func addNamesTheSenderAndAMessageThatTheLinksPageShowsAndMessageChanges() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "contract.pdf")
        try Data(count: 300).write(to: file)
        let added = try share(
            ["add", "--json", file.path, "--sender", "Zoé Martin", "--message", "Signed,\npage 4."], server: daemon.address)
        #expect(added.status == 0, "\(added.stderr)")
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let link = daemon.address + (record.link ?? "")
        let page = try await http("GET", link)
        #expect(page.body.contains("Zoé Martin shared a file with you") && page.body.contains("Signed,\npage 4."), "\(page.body)")
        let shown = try share(["show", record.id], server: daemon.address)
        #expect(shown.stdout.contains("  from:    Zoé Martin\n  message: Signed,\n           page 4."), "\(shown.stdout)")

        let changed = try share(["message", record.id, "--sender", "", "A new word."], server: daemon.address)
        #expect(changed.status == 0 && changed.stdout.contains("says with a message"), "\(changed.stdout)\(changed.stderr)")
        let plain = try await http("GET", link)
        #expect(plain.body.contains("A file was shared with you") && plain.body.contains("A new word."))
        #expect(try share(["message", record.id, "--clear"], server: daemon.address).stdout.contains("says nothing more"))
        let refused = try share(["message", record.id, "a\u{1B}[2J"], server: daemon.address)
        #expect(refused.status != 0 && refused.stderr.contains("'message'"), "\(refused.stderr)")
        #expect(daemon.stop() == 0)
    }
}
