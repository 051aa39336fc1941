import Crypto
import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Uploads on every store: a share appears only with its last byte, whole; an upload broken off keeps what arrived
/// and resumes from there; the same bytes are kept once, and go with their last share.
@Suite struct UploadTests {
    private static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    private static func hash(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    private static func new(_ name: String, size: Int, code: String? = nil) throws -> NewShare {
        var share = try NewShare(id: nil, name: name, folder: "/reports", createdAt: nil, size: Int64(size))
        share.link.code = code
        return share
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func aHistoryHoldsAHundredUploadsInProgressAtMost(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let mallory = store.history(of: "mallory", quota: nil)
            var started: [UploadStatus] = []
            for index in 0..<UploadStatus.maxInProgress {
                started.append(try await mallory.startUpload(try Self.new("\(index).bin", size: 1), now: .now()))
            }
            await #expect(throws: ShareError.tooManyUploads(limit: 100)) {
                try await mallory.startUpload(try Self.new("more.bin", size: 1), now: .now())
            }
            _ = try await store.history(of: "alice", quota: nil).startUpload(try Self.new("hers.bin", size: 1), now: .now())
            try await mallory.abandonUpload(id: started[0].id)
            _ = try await mallory.startUpload(try Self.new("again.bin", size: 1), now: .now())
        }
    }

    /// A trashed file is still kept, so it counts until it is purged, and an upload counts what it will take: a
    /// quota could otherwise be passed many times over by trashing or by starting uploads.
    @Test(arguments: Backend.everyKindOfBytes)
    func theQuotaCountsTrashedFilesUntilPurgedAndWhatUploadsReserve(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: 100)
            let started = try await alice.startUpload(try Self.new("kept.bin", size: 60), now: .now())
            #expect(try await alice.quotaUsage() == QuotaUsage(live: 0, trashedFiles: 0, uploading: 60))
            let appended = try await alice.appendToUpload(id: started.id, at: 0, UploadBody.of(Self.bytes(60)), now: .now(), by: "alice")
            let kept = try #require(appended.share)
            try await alice.trashShare(id: kept.id)
            #expect(try await alice.quotaUsage() == QuotaUsage(live: 0, trashedFiles: 60, uploading: 0))
            await #expect(throws: ShareError.quotaExceeded(quota: 100, used: 60)) {
                try await alice.startUpload(try Self.new("more.bin", size: 50), now: .now())
            }
            _ = try await alice.restoreShare(id: kept.id)
            #expect(try await alice.quotaUsage() == QuotaUsage(live: 60, trashedFiles: 0, uploading: 0), "restored: counted once")
            try await alice.trashShare(id: kept.id)
            try await alice.purgeShare(id: kept.id)
            #expect(try await alice.quotaUsage().total == 0)
            _ = try await alice.startUpload(try Self.new("more.bin", size: 50), now: .now())
        }
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func aShareAppearsOnlyWithItsLastByteWholeAndItsLinkGivesItsBytes(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let bytes = Self.bytes(3_000_000)
            let started = try await alice.startUpload(try Self.new("report.pdf", size: bytes.count, code: "Secret1"), now: .now())
            #expect(started.offset == 0 && started.length == 3_000_000 && started.share == nil)
            let first = try await alice.appendToUpload(id: started.id, at: 0, UploadBody.of(Array(bytes[..<1_200_000])), now: .now(), by: "alice")
            #expect(first.offset == 1_200_000 && first.share == nil)
            #expect(try await alice.upload(id: started.id).offset == 1_200_000)
            #expect(try await alice.listShares(ShareQuery()).records.isEmpty, "nothing of an unfinished upload is visible")
            #expect(try await alice.usage().bytes == 0)

            let last = try await alice.appendToUpload(
                id: started.id, at: 1_200_000, UploadBody.of(Array(bytes[1_200_000...])), now: .now(), by: "alice")
            let share = try #require(last.share)
            #expect(share.name == "report.pdf" && share.folder == "/reports" && share.size == 3_000_000 && share.code == "Secret1")
            #expect(try await alice.listShares(ShareQuery()).records.map(\.id) == [share.id])
            #expect(try await alice.events(id: share.id, after: 0, limit: 10).events.map(\.action) == [.uploaded])
            let token = try #require(share.linkToken)
            #expect(try await store.openLink(token: token)?.bytes?.hash == Self.hash(bytes))
            #expect(try await store.download(token: token) == bytes)
            #expect(try await store.download(token: token, 2_999_000..<3_000_000) == Array(bytes[2_999_000...]), "any range of them")
            await #expect(throws: ShareError.uploadNotFound(id: started.id), "a finished upload takes no more") {
                try await alice.upload(id: started.id)
            }
        }
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func anUploadBrokenOffKeepsWhatArrivedAndResumesFromThereOnly(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let bytes = Self.bytes(2_500_000, seed: 3)
            let started = try await store.sharedHistory.startUpload(try Self.new("video.mp4", size: bytes.count), now: .now())
            await #expect(throws: UploadBody.BrokenOff.self) {
                try await store.sharedHistory.appendToUpload(
                    id: started.id, at: 0, UploadBody.of(bytes, breaksAfter: 1_100_000), now: .now(), by: "me")
            }
            let held = try await store.sharedHistory.upload(id: started.id).offset
            #expect(held == 1_100_000, "every byte that arrived is kept")
            await #expect(throws: ShareError.uploadOffset(held: held), "bytes sent from anywhere else are refused") {
                try await store.sharedHistory.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes), now: .now(), by: "me")
            }
            await #expect(throws: ShareError.self, "bytes past the declared length are refused") {
                try await store.sharedHistory.appendToUpload(
                    id: started.id, at: held, UploadBody.of(Array(bytes[Int(held)...]) + [0]), now: .now(), by: "me")
            }
            let resumed = try await store.sharedHistory.upload(id: started.id).offset
            let share = try #require(
                try await store.sharedHistory.appendToUpload(
                    id: started.id, at: resumed, UploadBody.of(Array(bytes[Int(resumed)...])), now: .now(), by: "me"
                ).share
            )
            #expect(try await store.download(token: try #require(share.linkToken)) == bytes)
            #expect(try await store.openLink(token: share.linkToken!)?.bytes?.hash == Self.hash(bytes))
        }
    }

    /// Larger than an object store's part, sent in three requests that end anywhere (one broken off): whole, and any
    /// range of it across the parts.
    @Test(arguments: Backend.everyKindOfBytes)
    func aFileOfSeveralPartsSentInPiecesThatEndAnywhereIsWhole(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let bytes = Self.bytes(11 * 1_048_576 + 777, seed: 5)
            let history = store.sharedHistory
            let started = try await history.startUpload(try Self.new("film.mp4", size: bytes.count), now: .now())
            _ = try await history.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes[..<2_000_001]), now: .now(), by: "me")
            await #expect(throws: UploadBody.BrokenOff.self) {
                try await history.appendToUpload(
                    id: started.id, at: 2_000_001, UploadBody.of(bytes[2_000_001...], breaksAfter: 6_000_000), now: .now(), by: "me")
            }
            let held = try await history.upload(id: started.id).offset
            #expect(held == 8_000_001, "every byte that arrived is kept")
            let share = try #require(
                try await history.appendToUpload(id: started.id, at: held, UploadBody.of(bytes[Int(held)...]), now: .now(), by: "me").share)
            let token = try #require(share.linkToken)
            #expect(try await store.download(token: token) == bytes)
            #expect(try await store.download(token: token, 5_240_000..<5_250_000) == Array(bytes[5_240_000..<5_250_000]))
            #expect(try await store.openLink(token: token)?.bytes?.hash == Self.hash(bytes))
        }
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func theSameBytesAreKeptOnceAndGoWithTheirLastShare(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let bytes = Self.bytes(1_500_000, seed: 9)
            var shares: [ShareRecord] = []
            for name in ["a.bin", "b.bin"] {
                let started = try await store.sharedHistory.startUpload(try Self.new(name, size: bytes.count), now: .now())
                shares.append(
                    try #require(
                        try await store.sharedHistory.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes), now: .now(), by: "me").share))
            }
            #expect(try await store.storedBlobs() == (1, 1_500_000), "shared twice, stored once")
            try await store.sharedHistory.purgeShare(id: shares[0].id)
            #expect(try await store.download(token: shares[1].linkToken!) == bytes, "the other share keeps them")
            try await store.sharedHistory.trashShare(id: shares[1].id)
            #expect(try await store.openLink(token: shares[1].linkToken!)?.bytes == nil, "a trashed share's link opens nothing")
            #expect(try await store.storedBlobs() == (1, 1_500_000), "the trash keeps them")
            #expect(try await store.purgeTrash(trashedBefore: Timestamp(millisecondsSinceEpoch: Timestamp.now().millisecondsSinceEpoch + 1)) == 1)
            #expect(try await store.storedBlobs() == (0, 0), "purging the last share frees them")
        }
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func anUploadPastTheQuotaIsRefusedBeforeItsFirstByteAndOthersAreNotFound(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: 1_000)
            await #expect(throws: ShareError.quotaExceeded(quota: 1_000, used: 0)) {
                try await alice.startUpload(try Self.new("big.iso", size: 1_001), now: .now())
            }
            let started = try await alice.startUpload(try Self.new("small.txt", size: 10), now: .now())
            let bob = store.history(of: "bob", quota: nil)
            await #expect(throws: ShareError.uploadNotFound(id: started.id), "another user's upload is not found") {
                try await bob.upload(id: started.id)
            }
            await #expect(throws: ShareError.uploadNotFound(id: started.id)) {
                try await bob.appendToUpload(id: started.id, at: 0, UploadBody.of(Self.bytes(10)), now: .now(), by: "bob")
            }
            try await alice.abandonUpload(id: started.id)
            await #expect(throws: ShareError.uploadNotFound(id: started.id), "an abandoned upload is gone") { try await alice.upload(id: started.id) }
            #expect(try await store.storedBlobs() == (0, 0))
        }
    }

    /// Two uploads started together cannot both fit a quota only one fits: the second is refused before its first
    /// byte, not at its last. A finished upload counts once, as its share.
    @Test(arguments: Backend.everyKindOfBytes)
    func uploadsInProgressCountAgainstTheQuota(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: 1_000)
            let first = try await alice.startUpload(try Self.new("first.bin", size: 600), now: .now())
            await #expect(throws: ShareError.quotaExceeded(quota: 1_000, used: 600), "the first upload's 600 bytes are held for it") {
                try await alice.startUpload(try Self.new("second.bin", size: 500), now: .now())
            }
            await #expect(throws: ShareError.quotaExceeded(quota: 1_000, used: 600), "and a plain record is held to them too") {
                try await alice.createShare(try Self.new("record.bin", size: 500), by: "alice")
            }
            let finished = try await alice.appendToUpload(id: first.id, at: 0, UploadBody.of(Self.bytes(600)), now: .now(), by: "alice")
            #expect(finished.share?.size == 600, "the upload's own bytes do not stand in its way at its end")
            #expect(try await alice.filesBytes() == 600, "what the files take counts the finished upload")
            let second = try await alice.startUpload(try Self.new("second.bin", size: 400), now: .now())
            try await alice.abandonUpload(id: second.id)
            _ = try await alice.startUpload(try Self.new("third.bin", size: 400), now: .now())
        }
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func anUploadWithNoByteForADayIsDroppedAndAnEmptyFileIsAShareAtOnce(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let start = Timestamp(millisecondsSinceEpoch: 1_800_000_000_000)
            let stale = try await store.sharedHistory.startUpload(try Self.new("stale.bin", size: 100), now: start)
            #expect(stale.expiresAt.millisecondsSinceEpoch == start.millisecondsSinceEpoch + UploadStatus.patience)
            let later = Timestamp(millisecondsSinceEpoch: start.millisecondsSinceEpoch + UploadStatus.patience - 1)
            #expect(try await store.dropStaleUploads(now: later) == 0)
            #expect(try await store.dropStaleUploads(now: Timestamp(millisecondsSinceEpoch: later.millisecondsSinceEpoch + 2)) == 1)
            await #expect(throws: ShareError.uploadNotFound(id: stale.id)) { try await store.sharedHistory.upload(id: stale.id) }

            let empty = try await store.sharedHistory.startUpload(try Self.new("empty.txt", size: 0), now: .now())
            let share = try #require(
                try await store.sharedHistory.appendToUpload(id: empty.id, at: 0, UploadBody.of([]), now: .now(), by: "me").share)
            #expect(share.size == 0)
            #expect(try await store.download(token: try #require(share.linkToken)) == [])
        }
    }
}
