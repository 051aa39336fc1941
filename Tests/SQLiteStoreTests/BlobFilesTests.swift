import Foundation
import ShareChildProcess
import ShareHistory
import ShareKit
import ShareSQLite
import StoreTestSupport
import Testing

/// The files of a SQLite history's bytes: beside the database, readable by its owner alone, named by their hash; an
/// upload resumed by another process hashes what it holds first; a purged share's file goes.
@Suite struct BlobFilesTests {
    @Test func anUploadResumedAfterARestartBecomesAFileNamedByItsHashThatAPurgeRemoves() async throws {
        let path = try temporaryDatabasePath()
        let bytes = (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let id: String
        do {
            let store = try SQLiteStore(path: path)
            id = try await store.sharedHistory.startUpload(
                try NewShare(id: nil, name: "a.bin", folder: nil, createdAt: nil, size: 2_000_000), now: .now()
            ).id
            _ = try await store.sharedHistory.appendToUpload(id: id, at: 0, UploadBody.of(bytes[..<700_000]), now: .now(), by: "me")
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.sharedHistory.upload(id: id).offset == 700_000, "the bytes so far outlive the process")
        let share = try #require(
            try await store.sharedHistory.appendToUpload(id: id, at: 700_000, UploadBody.of(bytes[700_000...]), now: .now(), by: "me").share)
        let token = try #require(share.linkToken)
        let stored = try #require(try await store.openLink(token: token)?.bytes)
        let file = "\(path).files/blobs/\(stored.hash.prefix(2))/\(stored.hash)"
        #expect(FileManager.default.contents(atPath: file) == Data(bytes), "the whole file, under its hash's name")
        #expect(try Self.sha256(of: file) == stored.hash, "the hash of the bytes resumed in another process is theirs")
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "readable by the service alone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path).files/uploads").isEmpty, "the upload's own file is gone")
        try await store.sharedHistory.purgeShare(id: share.id)
        #expect(!FileManager.default.fileExists(atPath: file), "purging the last share frees its file")
    }

    /// The process killed after the last byte was stored, before the share was made, and even after the bytes got
    /// their blob's name (here, a damaged file under it): the next look at the upload (a tus client's `HEAD`)
    /// makes the share, with its whole bytes.
    @Test func aFinishCutOffByACrashIsDoneByTheNextLookAtTheUpload() async throws {
        let path = try temporaryDatabasePath()
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        let store = try SQLiteStore(path: path)
        let id = try await store.sharedHistory.startUpload(
            try NewShare(id: nil, name: "cut.bin", folder: nil, createdAt: nil, size: 300_000), now: .now()
        ).id
        _ = try await store.sharedHistory.appendToUpload(id: id, at: 0, UploadBody.of(bytes[..<299_999]), now: .now(), by: "me")
        let upload = "\(path).files/uploads/\(id)"
        let handle = try #require(FileHandle(forWritingAtPath: upload))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes[299_999...]))
        try handle.close()
        let hash = try Self.sha256(of: upload)
        let blob = "\(path).files/blobs/\(hash.prefix(2))/\(hash)"
        try FileManager.default.createDirectory(atPath: "\(path).files/blobs/\(hash.prefix(2))", withIntermediateDirectories: true)
        try Data("half of something".utf8).write(to: URL(filePath: blob))
        #expect(try await store.sharedHistory.listShares(ShareQuery()).records.isEmpty)

        let status = try await store.sharedHistory.finishCutOffUpload(id: id, now: .now(), by: "me")
        let share = try #require(status.share, "the next look finishes it")
        #expect(status.offset == 300_000 && share.size == 300_000)
        #expect(try await store.download(token: try #require(share.linkToken)) == bytes, "its whole bytes, not the damaged file's")
        #expect(FileManager.default.contents(atPath: blob) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path).files/uploads").isEmpty, "the upload's own file is gone")
        await #expect(throws: ShareError.uploadNotFound(id: id)) { try await store.sharedHistory.upload(id: id) }
    }

    /// Whole chunks written through the page cache cost a copy of each byte into fresh pages, which the disk holds
    /// anyway once the upload is synchronized: a gigabyte's upload took twice the CPU. Resumed off a page's start,
    /// with a tail shorter than a page, the file is still exactly what was sent.
    @Test(.enabled(if: (try? fileSystemType(of: NSTemporaryDirectory())) != "tmpfs", "tmpfs is the page cache"))
    func anUploadsWholeChunksReachTheDiskAroundThePageCacheAndTheFileIsWhatWasSent() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteStore(path: path)
        let bytes = (0..<3 * 1_048_576 + 777).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 12) }
        let history = store.sharedHistory
        let id = try await history.startUpload(
            try NewShare(id: nil, name: "film.mp4", folder: nil, createdAt: nil, size: Int64(bytes.count)), now: .now()
        ).id
        _ = try await history.appendToUpload(id: id, at: 0, UploadBody.of(bytes[..<100_003]), now: .now(), by: "me")
        let share = try #require(
            try await history.appendToUpload(id: id, at: 100_003, UploadBody.of(bytes[100_003...]), now: .now(), by: "me").share)
        let token = try #require(share.linkToken)
        let hash = try #require(try await store.openLink(token: token)?.bytes?.hash)
        let file = "\(path).files/blobs/\(hash.prefix(2))/\(hash)"
        let cached = try Self.pagesInCache(of: file)
        #expect(cached[256..<768].allSatisfy { !$0 }, "the second and third mebibytes, whole chunks, are not in the page cache")
        #expect(cached.last == true, "the tail, less than a page, went through it")
        #expect(FileManager.default.contents(atPath: file) == Data(bytes))
    }

    /// For each page of the file at `path`, whether the page cache holds it.
    private static func pagesInCache(of path: String) throws -> [Bool] {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let size = Int(status.st_size)
        let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, size) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var held = [UInt8](repeating: 0, count: (size + page - 1) / page)
        try #require(mincore(mapped, size, &held) == 0)
        return held.map { $0 & 1 == 1 }
    }

    private static func sha256(of path: String) throws -> String {
        try run("/usr/bin/sha256sum", [path]).split(separator: " ").first.map(String.init) ?? ""
    }
}

/// The type of the file system that holds `path` (`ext2/ext3`, `xfs`, `tmpfs`…).
private func fileSystemType(of path: String) throws -> String {
    try run("/usr/bin/stat", ["-f", "-c", "%T", path]).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// What `executable` with `arguments` prints.
private func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
}
