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

    private static func sha256(of path: String) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
