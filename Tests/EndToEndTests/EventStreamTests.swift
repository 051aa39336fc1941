import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The live stream and the feed with the real daemon and CLI: `share watch` prints each event as it happens and
/// comes back after a restart without losing one, a stream never keeps the daemon from stopping, and the feed opens
/// with its key alone until the key is replaced.
@Suite struct EventStreamTests {
    private func addFile(_ name: String, in folder: URL, _ daemon: Daemon, token: String? = nil) throws -> ShareRecord {
        let file = folder.appending(path: name)
        try Data("hello".utf8).write(to: file)
        let added = try share(["add", file.path, "--json"], server: daemon.address, environment: token.map { ["SHARE_TOKEN": $0] } ?? [:])
        return try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
    }

    /// `share watch --json` running beside the test, its lines read as they come.
    private final class Watch {
        let process = ChildProcess()
        let output: URL

        init(server: String, in folder: URL) throws {
            output = folder.appending(path: "watch-\(UUID().uuidString).out")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.executableURL = shareBinary
            process.arguments = ["watch", "--json", "--server", server]
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        func messages() throws -> [EventMessage] {
            try String(contentsOf: output, encoding: .utf8).split(separator: "\n").compactMap {
                try? WireJSON.decoder().decode(EventMessage.self, from: Data($0.utf8))
            }
        }
    }

    @Test func watchPrintsEachEventAsItHappensAndMissesNoneAcrossARestart() async throws {
        let folder = try temporaryFolder()
        let port = try freePort()
        var daemon = try Daemon(folder: folder, extraArguments: ["--listen", "127.0.0.1:\(port)"])
        let watch = try Watch(server: daemon.address, in: folder)
        // Events before the stream opens are not replayed: wait for it, then make one.
        try await waitUntil("the stream open and an event through it") {
            _ = try addFile("probe-\(UUID().uuidString).txt", in: folder, daemon)
            return try !watch.messages().isEmpty
        }
        let record = try addFile("report.txt", in: folder, daemon)
        #expect(try share(["rename", record.id, "final.txt"], server: daemon.address).status == 0)
        func reportEvents() throws -> [String] { try watch.messages().filter { $0.data.share.id == record.id }.map(\.type) }
        try await waitUntil("the upload and the rename") { try reportEvents().count == 2 }
        #expect(await daemon.stop(within: .seconds(10)) == 0, "an open stream does not keep the daemon from stopping")

        // What happens while watch waits to come back is replayed from the last event it printed.
        daemon = try Daemon(folder: folder, extraArguments: ["--listen", "127.0.0.1:\(port)"])
        #expect(try share(["mv", record.id, "/archive"], server: daemon.address).status == 0)
        #expect(try share(["rm", record.id, "--yes"], server: daemon.address).status == 0)
        try await waitUntil("the events made meanwhile") { try reportEvents().count == 4 }
        #expect(try reportEvents() == ["share.uploaded", "share.renamed", "share.moved", "share.trashed"])
        let ids = try watch.messages().compactMap { Int($0.data.id) }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count, "each once, in order")
        #expect(daemon.stop() == 0)
    }

    @Test func theStreamAsksForSignInAndNamesABadLastEventID() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_TOKENS": "secret-1", "SHARE_AUTH_PUBLIC_READ": "true"])
        #expect(try await http("GET", daemon.address + "/events").status == 401, "a public reader has no stream")
        let bad = try await http("GET", daemon.address + "/events", headers: ["Authorization": "Bearer secret-1", "Last-Event-ID": "yesterday"])
        #expect(bad.status == 400 && bad.body.contains("Last-Event-ID"))
        #expect(daemon.stop() == 0)
    }

    @Test func theFeedOpensWithItsKeyAloneAsValidAtomUntilTheKeyIsReplaced() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_TOKENS": "secret-1"])
        let signedIn = ["Authorization": "Bearer secret-1"]
        _ = try addFile("a & b <report>.txt", in: folder, daemon, token: "secret-1")
        let me = try await http("GET", daemon.address + "/me", headers: signedIn)
        let info = try WireJSON.decoder().decode(UserInfo.self, from: Data(me.body.utf8))
        let feed = try #require(info.feedUrl)
        #expect(feed.hasPrefix("/feed/") && feed.hasSuffix(".atom"))
        let opened = try await http("GET", daemon.address + feed)
        #expect(opened.status == 200 && opened.headers["content-type"]?.hasPrefix("application/atom+xml") == true, "no token: the key is enough")
        let parser = XMLParser(data: Data(opened.body.utf8))
        #expect(parser.parse(), "well-formed XML: \(opened.body)")
        let written = folder.appending(path: "feed.atom")
        try opened.body.write(to: written, atomically: true, encoding: .utf8)
        let checked = try ChildProcess.finished(Self.atomCheck, [written.path])
        #expect(checked.status == 0, "valid against RFC 4287's grammar: \(checked.output)")
        #expect(opened.body.contains("<title>a &amp; b &lt;report&gt;.txt was uploaded</title>") && opened.body.contains("<id>urn:share:event:"))
        let renewed = try await http("POST", daemon.address + "/me/feed-key", headers: signedIn)
        let next = try #require(try JSONSerialization.jsonObject(with: Data(renewed.body.utf8)) as? [String: String])["feedUrl"]
        #expect(next != feed)
        #expect(try await http("GET", daemon.address + feed).status == 404, "the old key opens nothing")
        #expect(try await http("GET", daemon.address + (next ?? "")).status == 200)
        #expect(try await http("GET", daemon.address + "/feed/guess.atom").status == 404)
        #expect(daemon.stop() == 0)
    }

    /// Checks a feed against RFC 4287's grammar with xmllint.
    private static let atomCheck = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../scripts/atom-check").path
}
