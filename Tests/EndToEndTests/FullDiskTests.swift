import Foundation
import Glibc
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(Glibc)
#endif

/// A disk that fills during an upload, with the real binaries: the files' folder is a small file system of its own.
/// Were it handled wrong, the person would get a share with half its bytes, a 500, or a daemon that stops answering.
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting the small file system needs root"))
struct FullDiskTests {
    private static func mount(_ arguments: [String]) throws -> Int32 {
        let process = ChildProcess()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" \"$@\" 2>/dev/null"] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Makes `folder` a file system of its own of `mebibytes`, which `unmount` gives back.
    private static func mountSmallDisk(_ folder: URL, mebibytes: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #require(try mount(["/bin/mount", "-t", "tmpfs", "-o", "size=\(mebibytes)m", "tmpfs", folder.path]) == 0, "a small file system")
    }

    private static func unmount(_ folder: URL) {
        _ = try? mount(["/bin/umount", "-l", folder.path])
    }

    @Test func anUploadThatFillsTheDiskIs507AndNoShareWhileReadsGoOn() async throws {
        let folder = try temporaryFolder("full-disk")
        let files = folder.appending(path: "share.db.files")
        try Self.mountSmallDisk(files, mebibytes: 3)
        defer { Self.unmount(files) }
        let daemon = try Daemon(folder: folder)
        let video = folder.appending(path: "video.mp4")
        try randomBytes(6 * 1_048_576, writtenTo: video)

        let added = try share(["add", video.path], server: daemon.address)
        #expect(added.status != 0 && added.stderr.contains("disk is full"), "\(added.status) \(added.stderr)")
        #expect(try await http("GET", daemon.address + "/share").body == "[]", "no share has part of its bytes")
        let record = try share(["add", video.path, "--record-only", "--name", "noted.mp4"], server: daemon.address)
        #expect(record.status == 0, "the database is elsewhere and still takes records: \(record.stderr)")
        #expect(try await http("GET", daemon.address + "/healthz").status == 200)
        #expect(daemon.stop() == 0)
    }

    @Test func aDiskFilledByAnUploadIsGivenBackAndWritesGoOn() async throws {
        let folder = try temporaryFolder("full-disk")
        let disk = folder.appending(path: "disk")
        try Self.mountSmallDisk(disk, mebibytes: 6)
        defer { Self.unmount(disk) }
        // The database and the files both on the small disk, as on a single machine.
        let daemon = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0", "--db", disk.appending(path: "share.db").path])
        let tus = ["Tus-Resumable": "1.0.0", "Upload-Length": "100", "Upload-Metadata": "filename \(Data("later.pdf".utf8).base64EncodedString())"]
        let waiting = try await http("POST", daemon.address + "/share/uploads", headers: tus)
        let later = try #require(waiting.headers["location"], "an upload begun before the disk fills: \(waiting.status)")
        let video = folder.appending(path: "video.mp4")
        try randomBytes(10 * 1_048_576, writtenTo: video)

        let added = try share(["add", video.path], server: daemon.address)
        #expect(added.status != 0 && added.stderr.contains("disk is full"), "\(added.status) \(added.stderr)")
        let uploads = disk.appending(path: "share.db.files/uploads")
        let kept = try FileManager.default.contentsOfDirectory(atPath: uploads.path).map { name in
            try FileManager.default.attributesOfItem(atPath: uploads.appending(path: name).path)[.size] as? Int ?? 0
        }
        #expect(kept.reduce(0, +) == 0, "nothing of the full upload is kept: \(kept)")
        let record = try share(["add", video.path, "--record-only", "--name", "noted.mp4"], server: daemon.address)
        #expect(record.status == 0, "the room came back, and writes go on: \(record.stderr)")
        let dropped = try await http("DELETE", daemon.address + later, headers: ["Tus-Resumable": "1.0.0"])
        #expect(dropped.status == 204, "abandoning an upload needs no room: \(dropped.status) \(dropped.body)")
        #expect(daemon.stop() == 0)
    }
}
