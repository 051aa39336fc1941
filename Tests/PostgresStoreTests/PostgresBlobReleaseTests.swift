import PostgresNIO
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import SharePostgres

/// A purge and an upload of the same bytes finishing at once, on two nodes or two connections: the upload's share
/// keeps a blob holding its bytes, where it used to be pointed at the blob the purge forgot, and failed (a 500).
@Suite struct PostgresBlobReleaseTests {
    @Test func anUploadFinishingWhileThePurgeOfItsBytesLastShareCommitsKeepsItsBytes() async throws {
        try await TestPostgres.withStore { store in
            let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            let first = try await upload(bytes, as: "first.pdf", to: store)
            // From the trash, as retention purges: its totals are not the ones a new share changes, so nothing else
            // makes the upload wait for the purge.
            try await store.sharedHistory.trashShare(id: first.id, includeTrashed: false, now: .now(), by: "me")
            let second = try await store.sharedHistory.startUpload(try Self.new("second.pdf", size: bytes.count), now: .now())

            // The purge of the first share, its transaction held open once its DELETE has run; it names its session.
            let (deleted, noteDeleted) = AsyncStream.makeStream(of: Int32.self)
            let (commit, letCommit) = AsyncStream.makeStream(of: Void.self)
            defer { letCommit.finish() }
            let purge = Task {
                defer { noteDeleted.finish() }
                try await store.lease(statementTimeout: 0) { connection in
                    try await connection.query("BEGIN", logger: store.logger)
                    try await connection.query("DELETE FROM share WHERE id_key = \(PostgresRows.idKey(first.id))", logger: store.logger)
                    for try await session in try await connection.query("SELECT pg_backend_pid()", logger: store.logger).decode(Int32.self) {
                        noteDeleted.yield(session)
                    }
                    for await _ in commit { break }
                    try await connection.query("COMMIT", logger: store.logger)
                }
            }
            var purging: Int32?
            for await session in deleted {
                purging = session
                break
            }
            let session = try #require(purging, "the purge's DELETE ran")
            let finishing = Task { try await store.sharedHistory.appendToUpload(id: second.id, at: 0, UploadBody.of(bytes), now: .now(), by: "me") }
            try await waitUntil("the finishing upload waits for the purge") {
                try await store.values("SELECT count(*)::bigint FROM pg_stat_activity WHERE \(session) = ANY (pg_blocking_pids(pid))", as: Int64.self)
                    != [0]
            }
            letCommit.yield()
            try await purge.value

            let finished = try #require(try await finishing.value.share)
            #expect(try await store.download(token: try #require(finished.linkToken)) == bytes)
            #expect(try await store.storedBlobs().count == 1)
        }
    }

    /// The share an upload of `bytes` becomes.
    private func upload(_ bytes: [UInt8], as name: String, to store: PostgresStore) async throws -> ShareRecord {
        let started = try await store.sharedHistory.startUpload(try Self.new(name, size: bytes.count), now: .now())
        return try #require(try await store.sharedHistory.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes), now: .now(), by: "me").share)
    }

    private static func new(_ name: String, size: Int) throws -> NewShare {
        try NewShare(id: nil, name: name, folder: nil, createdAt: nil, size: Int64(size))
    }
}
