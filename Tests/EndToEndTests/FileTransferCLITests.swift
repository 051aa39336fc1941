import Foundation
import Glibc
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(Glibc)
#endif

/// The bytes behind shares with the real binaries: `share add` uploads a file, `share get` gives it back to its
/// owner by id and to anyone by its link and code, the same bytes are kept once, and an upload cut off resumes in
/// the next run without sending again what arrived.
@Suite(.serialized) struct FileTransferCLITests {
    @Test func aFileAddedOpensByIdForItsOwnerAndByLinkAndCodeForAnyone() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_TOKENS": "owner-secret"])
        let owner = ["SHARE_TOKEN": "owner-secret"]
        let file = folder.appending(path: "Q1 report.pdf")
        let bytes = try randomBytes(3_000_000, writtenTo: file)
        let added = try share(["add", file.path, "--code"], server: daemon.address, environment: owner)
        #expect(added.status == 0, "\(added.stderr)")
        let lines = added.stdout.split(separator: "\n").map(String.init)
        let id = try #require(lines.first?.split(separator: " ").first.map(String.init))
        let link = try #require(lines.first { $0.hasPrefix("  link: ") }.map { String($0.dropFirst("  link: ".count)) })
        let code = try #require(lines.first { $0.hasPrefix("  code: ") }.map { String($0.dropFirst("  code: ".count)) })
        #expect(blobFiles(folder).count == 1, "the bytes are kept beside the database")

        let mine = folder.appending(path: "mine.pdf")
        let byID = try share(["get", id, "-o", mine.path], server: daemon.address, environment: owner)
        #expect(byID.status == 0 && byID.stdout.contains("3.0 MB"), "\(byID.stderr)")
        #expect(try Data(contentsOf: mine) == bytes)
        let theirs = folder.appending(path: "theirs.pdf")
        let byLink = try share(["get", link, "--code", code, "-o", theirs.path], server: "http://127.0.0.1:9")
        #expect(byLink.status == 0, "a recipient needs no token, nor this server: \(byLink.stderr)")
        #expect(try Data(contentsOf: theirs) == bytes)
        let noCode = try share(["get", link, "-o", folder.appending(path: "none").path], server: "http://127.0.0.1:9")
        #expect(noCode.status == 4 && noCode.stderr.contains("--code"), "\(noCode.stderr)")
        let downloads = try share(["downloads", id], server: daemon.address, environment: owner)
        #expect(downloads.stdout.split(separator: "\n").count == 2, "the recipient's whole download, never the owner's: \(downloads.stdout)")

        #expect(try share(["add", file.path, "--name", "again.pdf"], server: daemon.address, environment: owner).status == 0)
        #expect(blobFiles(folder).count == 1, "the same bytes are kept once")
        let recordOnly = try share(["add", file.path, "--record-only", "--name", "record.pdf"], server: daemon.address, environment: owner)
        #expect(recordOnly.status == 0 && !recordOnly.stdout.contains("link:"), "a record alone opens nothing: \(recordOnly.stdout)")
        #expect(daemon.stop() == 0)
        try Self.checkFindsMissingAndUnclaimedFiles(folder)
    }

    @Test func theOwnerGetsTheirFileWithoutSpendingItsLinkAndAfterRevokingIt() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(
            folder: folder, environment: ["SHARE_AUTH_USERS": "alice=alice-secret,bob=bob-secret", "SHARE_AUTH_HISTORIES": "per-user"])
        let (alice, bob) = (["SHARE_TOKEN": "alice-secret"], ["SHARE_TOKEN": "bob-secret"])
        let file = folder.appending(path: "plan.pdf")
        let bytes = try randomBytes(200_000, writtenTo: file)
        let added = try share(["add", "--json", file.path, "--max-downloads", "1"], server: daemon.address, environment: alice)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let mine = folder.appending(path: "mine.pdf")
        #expect(try share(["get", record.id, "-o", mine.path], server: daemon.address, environment: alice).status == 0)
        #expect(try Data(contentsOf: mine) == bytes)
        let theirs = folder.appending(path: "theirs.pdf")
        let link = daemon.address + (record.link ?? "")
        #expect(try share(["get", link, "-o", theirs.path], server: daemon.address).status == 0, "the link's one download is still there")
        #expect(try share(["revoke", record.id, "--yes"], server: daemon.address, environment: alice).status == 0)
        try FileManager.default.removeItem(at: mine)
        let afterRevoke = try share(["get", record.id, "-o", mine.path], server: daemon.address, environment: alice)
        #expect(try afterRevoke.status == 0 && Data(contentsOf: mine) == bytes, "\(afterRevoke.stderr)")
        let shown = try share(["show", "--json", record.id], server: daemon.address, environment: alice)
        #expect(try WireJSON.decoder().decode(ShareRecord.self, from: Data(shown.stdout.utf8)).downloads == 1)
        let other = try share(["get", record.id, "-o", folder.appending(path: "bob.pdf").path], server: daemon.address, environment: bob)
        #expect(other.status != 0 && other.stderr.contains(record.id), "another user's share is not theirs to read: \(other.stderr)")
        #expect(daemon.stop() == 0)
    }

    /// `shared check` says the files are whole, names files a share needs that are gone, and counts those no share
    /// needs.
    private static func checkFindsMissingAndUnclaimedFiles(_ folder: URL) throws {
        let database = folder.appending(path: "share.db").path
        let whole = try Daemon.run(["check", "--db", database], in: folder)
        #expect(whole.status == 0 && whole.output.contains("1 file of shares (3000000 bytes) whole"), "\(whole.output)")
        let blob = URL(filePath: try #require(blobFiles(folder).first))
        let stray = blob.deletingLastPathComponent().appending(path: String(repeating: "0", count: 64))
        try FileManager.default.copyItem(at: blob, to: stray)
        let unclaimed = try Daemon.run(["check", "--db", database], in: folder)
        #expect(unclaimed.status == 0 && unclaimed.output.contains("1 no share needs (3000000 bytes)"), "\(unclaimed.output)")
        try FileManager.default.removeItem(at: blob)
        let missing = try Daemon.run(["check", "--db", database], in: folder)
        #expect(missing.status != 0 && missing.output.contains("lacks the bytes of 1 file"), "\(missing.output)")
    }

    @Test func anUploadCutOffResumesInTheNextRunWithoutSendingAgainWhatArrived() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "video.mp4")
        let bytes = try randomBytes(64 * 1_048_576, writtenTo: file)
        let state = folder.appending(path: "state")
        let environment = ["XDG_STATE_HOME": state.path]
        let journal = state.appending(path: "share/uploads")

        // The first run, held to 2 MB a second, is killed once the daemon holds some of the file.
        let first = ChildProcess()
        first.executableURL = shareBinary
        first.arguments = ["add", file.path, "--limit-rate", "2M"]
        first.environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin", "SHARE_SERVER": daemon.address].merging(environment) { $1 }
        let said = folder.appending(path: "first-run.txt")
        FileManager.default.createFile(atPath: said.path, contents: nil)
        first.standardOutput = FileHandle.nullDevice
        first.standardError = try FileHandle(forWritingTo: said)
        try first.run()
        do {
            try await waitUntil("the upload is noted in the journal") {
                guard first.isRunning else { throw SocketError(description: "share add ended before its upload was noted") }
                return ((try? FileManager.default.contentsOfDirectory(atPath: journal.path)) ?? []).count == 1
            }
        } catch {
            let logged = (try? String(contentsOf: daemon.log, encoding: .utf8)) ?? ""
            Issue.record("\(error); share add said \((try? String(contentsOf: said, encoding: .utf8)) ?? ""); the daemon said \(logged.suffix(2000))")
            throw error
        }
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: journal.path).first)
        let upload = try String(contentsOf: journal.appending(path: entry), encoding: .utf8)
        var held = 0
        try await waitUntil("the daemon holds part of the file") {
            let head = try await http("HEAD", upload, headers: ["Tus-Resumable": "1.0.0"])
            held = Int(head.headers["upload-offset"] ?? "") ?? -1
            return head.status == 200 && held > 0
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(held < bytes.count, "the first run was cut off before its end")

        let second = try share(["add", file.path], server: daemon.address, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let id = try #require(second.stdout.split(separator: " ").first.map(String.init))
        #expect(daemon.stop() == 0)
        let log = try String(contentsOf: daemon.log, encoding: .utf8)
        #expect(log.components(separatedBy: "method=POST").count == 2, "one upload, resumed rather than started again")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: journal.path)) ?? []).isEmpty, "the journal forgets a finished upload")

        let again = try Daemon(folder: folder)
        let saved = folder.appending(path: "saved.mp4")
        #expect(try share(["get", id, "-o", saved.path], server: again.address).status == 0)
        #expect(try Data(contentsOf: saved) == bytes, "every byte, in order, across the two runs")
        #expect(again.stop() == 0)
    }

    /// A backup carries the files of its shares; a restore brings them back after their shares were purged, and a
    /// backup whose files went missing is refused rather than restored without them.
    @Test func aBackupCarriesItsFilesAndARestoreBringsThemBack() async throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "plan.pdf")
        let bytes = try randomBytes(1_500_000, writtenTo: file)
        let added = try share(["add", file.path], server: daemon.address)
        let id = try #require(added.stdout.split(separator: " ").first.map(String.init))
        let backup = folder.appending(path: "backups/share-1.db").path
        try FileManager.default.createDirectory(atPath: folder.appending(path: "backups").path, withIntermediateDirectories: true)
        let taken = try Daemon.run(["backup", "--db", database, "--to", backup], in: folder)
        #expect(taken.status == 0, "\(taken.output)")
        #expect(try share(["rm", id, "--purge", "--yes"], server: daemon.address).status == 0)
        #expect(blobFiles(folder).isEmpty, "purging the last share freed its file")
        #expect(daemon.stop() == 0)

        let restored = try Daemon.run(["restore", "--db", database, "--from", backup, "--force"], in: folder)
        #expect(restored.status == 0, "\(restored.output)")
        let again = try Daemon(folder: folder)
        let saved = folder.appending(path: "saved.pdf")
        #expect(try share(["get", id, "-o", saved.path], server: again.address).status == 0)
        #expect(try Data(contentsOf: saved) == bytes, "the restored share opens with its own bytes")
        #expect(again.stop() == 0)

        // Neither the backup nor the history has the file any more.
        try FileManager.default.removeItem(at: folder.appending(path: "backups/share-1.db.files/blobs"))
        try FileManager.default.removeItem(at: folder.appending(path: "share.db.files/blobs"))
        let lacking = try Daemon.run(["restore", "--db", database, "--from", backup, "--force"], in: folder)
        #expect(lacking.status != 0 && lacking.output.contains("lacks the bytes of 1 file"), "\(lacking.output)")
    }
}
