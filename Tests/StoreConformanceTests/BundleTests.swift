import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Several files under one link, on every store and every kind of bytes: the files listed at the upload's start are
/// the share's, in their order, after an upload broken off and resumed; their bytes are one after another; their
/// CRC-32s are kept once read. If the list were lost on the way, a folder sent would arrive as one nameless file.
@Suite struct BundleTests {
    private static func files() throws -> [BundleFile] {
        try BundleFiles.validate([("trip/day 1/café.jpg", 5), ("trip/empty.txt", 0), ("trip/notes.md", 4)])
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func aShareOfSeveralFilesListsThemWhereverItIsRead(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let files = try Self.files()
            var new = try NewShare(id: nil, name: "trip.zip", folder: "/holiday", createdAt: nil, size: 9)
            new.files = files
            let started = try await alice.startUpload(new, now: .now())
            let bytes: [UInt8] = Array("photo".utf8) + Array("note".utf8)
            await #expect(throws: UploadBody.BrokenOff.self) {
                try await alice.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes, piece: 3, breaksAfter: 6), now: .now(), by: "alice")
            }
            // Read again from the store, as another node resuming it would.
            let held = try await alice.upload(id: started.id).offset
            let finished = try await alice.appendToUpload(id: started.id, at: held, UploadBody.of(bytes[Int(held)...]), now: .now(), by: "alice")
            let share = try #require(finished.share)
            #expect(share.files == files && share.size == 9 && share.type == .zip && share.stored == true)
            #expect(share.files?.map(\.type) == [.image, .txt, .txt])
            #expect(try await alice.share(id: share.id).files == files)
            #expect(try await alice.listShares(ShareQuery()).records.first?.files == files)
            #expect(try await store.openLink(token: share.linkToken!)?.share.files == files, "what the link's page lists")
            #expect(try await store.download(token: share.linkToken!) == bytes, "their bytes one after the other")
            let exported = String(decoding: try await alice.exportChunk(after: 0, limit: 10, includingTrash: false).lines, as: UTF8.self)
            #expect(exported.contains(#""files":[{"name":"trip/day 1/café.jpg","size":5,"type":"image"},"#))

            #expect(try await store.fileChecksums(id: share.id) == nil, "not read yet")
            try await store.keepFileChecksums(id: share.id, [0xDEAD_BEEF, 0, 0x0102_0304])
            #expect(try await store.fileChecksums(id: share.id) == [0xDEAD_BEEF, 0, 0x0102_0304])
            let renamed = try await alice.updateShare(id: share.id, SharePatch(name: "Trip.zip", folder: nil))
            #expect(renamed.files == files, "a rename keeps the files")

            let single = try await alice.createShare(try NewShare(id: nil, name: "one.txt", folder: nil, createdAt: nil, size: 1))
            try await store.keepFileChecksums(id: single.id, [1])
            let kept = try await store.fileChecksums(id: single.id)
            #expect(single.files == nil && kept == nil, "a share of one file has no list")
        }
    }
}
