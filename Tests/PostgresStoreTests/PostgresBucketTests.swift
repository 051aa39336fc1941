import Crypto
import Logging
import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit
import ShareObjectStore
import StoreTestSupport
import Testing

@testable import SharePostgres

/// PostgreSQL with its files in a bucket (`[files] store = "s3"`), on the test S3 store: an upload goes up in parts
/// through whichever node a request reaches, nothing of its bytes stays in the database, and what nothing needs any
/// more leaves the bucket. Were it to fail, a user would get a file other than theirs, or pay for objects for ever.
@Suite struct PostgresBucketTests {
    private static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) }
    }

    /// Two nodes on one database and one bucket, each with its own memory of uploads in progress.
    private static func withTwoNodes(_ body: @Sendable (PostgresStore, PostgresStore, S3Client) async throws -> Void) async throws {
        let client = try TestS3.client()
        try await TestPostgres.withDatabase { name in
            try await TestPostgres.withClient(database: name) { first in
                try await TestPostgres.withClient(database: name) { second in
                    var stores: [PostgresStore] = []
                    for pool in [first, second] {
                        var store = PostgresStore(client: pool, logger: Logger(label: "test-postgres"), connectionWait: .seconds(120))
                        store.bucket = S3Bucket(client: client)
                        stores.append(store)
                    }
                    try await stores[0].migrate(waitingAtMost: .seconds(120))
                    try await body(stores[0], stores[1], client)
                }
            }
        }
    }

    private static func keys(_ client: S3Client) async throws -> [String] {
        try await client.list().objects.map(\.key)
    }

    private static func count(_ sql: PostgresQuery, _ store: PostgresStore) async throws -> Int {
        try await store.read { connection in try await store.count(sql, connection) }
    }

    @Test func aLargeUploadGoesUpInPartsThroughEitherNodeAndIsKeptOnlyInTheBucket() async throws {
        try await Self.withTwoNodes { one, other, client in
            let bytes = Self.bytes(12 * 1_048_576 + 12_345)
            var share = try NewShare(id: nil, name: "film.mp4", folder: "/", createdAt: nil, size: Int64(bytes.count))
            share.link.stored = true
            let started = try await one.sharedHistory.startUpload(share, now: .now())
            // Short of a part: held by the database, which the other node reads on.
            let first = try await one.sharedHistory.appendToUpload(
                id: started.id, at: 0, UploadBody.of(bytes[..<3_000_000]), now: .now(), by: "me")
            #expect(first.offset == 3_000_000)
            #expect(try await other.sharedHistory.upload(id: started.id).offset == 3_000_000)
            // Broken off on the other node, past the first part: what arrived is held, wherever it is asked.
            await #expect(throws: UploadBody.BrokenOff.self) {
                try await other.sharedHistory.appendToUpload(
                    id: started.id, at: 3_000_000, UploadBody.of(bytes[3_000_000...], breaksAfter: 6_500_000), now: .now(), by: "me")
            }
            #expect(try await one.sharedHistory.upload(id: started.id).offset == 9_500_000)
            let last = try await one.sharedHistory.appendToUpload(
                id: started.id, at: 9_500_000, UploadBody.of(bytes[9_500_000...]), now: .now(), by: "me")
            let record = try #require(last.share)
            let token = try #require(record.linkToken)
            let opened = try #require(try await other.openLink(token: token)?.bytes)
            #expect(opened.hash == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined(), "hashed whole though no node saw it all")
            #expect(try await other.download(token: token) == bytes)
            #expect(try await one.download(token: token, 5_242_000..<5_243_000) == Array(bytes[5_242_000..<5_243_000]), "a range across parts")
            #expect(try await Self.count("SELECT count(*) FROM share_blob_chunk", one) == 0, "no byte of the file in the database")
            #expect(try await Self.keys(client) == ["blobs/\(started.id)"])
            let named: [String: Int64?] = ["blobs/\(started.id)": Int64(bytes.count)]
            #expect(try await one.bucketObjects() == named, "what `shared check` compares the bucket with")

            try await one.sharedHistory.purgeShare(id: record.id)
            #expect(try await one.releaseFreedObjects() == 1)
            #expect(try await Self.keys(client).isEmpty, "purged: its object leaves the bucket")
        }
    }

    @Test func theSameBytesTwiceKeepOneObjectAndAnAbandonedUploadLeavesNone() async throws {
        try await Self.withTwoNodes { one, other, client in
            let bytes = Self.bytes(6 * 1_048_576)
            var records: [ShareRecord] = []
            for (node, name) in [(one, "a.bin"), (other, "b.bin")] {
                let started = try await node.sharedHistory.startUpload(
                    try NewShare(id: nil, name: name, folder: "/", createdAt: nil, size: 6_291_456), now: .now())
                records.append(
                    try #require(
                        try await node.sharedHistory.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes), now: .now(), by: "me").share))
            }
            #expect(try await other.releaseFreedObjects() == 1, "the second upload's own copy goes")
            #expect(try await Self.keys(client).count == 1)

            let abandoned = try await one.sharedHistory.startUpload(
                try NewShare(id: nil, name: "c.bin", folder: "/", createdAt: nil, size: 6_291_456), now: .now())
            _ = try await one.sharedHistory.appendToUpload(id: abandoned.id, at: 0, UploadBody.of(bytes[..<5_300_000]), now: .now(), by: "me")
            let multipart = try await one.read { connection in
                try await PostgresStore.single(String.self, "SELECT multipart FROM share_upload WHERE id = \(abandoned.id)", connection)
            }
            try await other.sharedHistory.abandonUpload(id: abandoned.id)
            _ = try await one.releaseFreedObjects()
            await #expect(throws: S3Failure.self, "its multipart upload is aborted: no part can be added") {
                try await client.putPart(
                    "blobs/\(abandoned.id)", upload: multipart, number: 9, ByteBuffer(bytes: [1]), sha256: SignatureV4.sha256([UInt8]([1])))
            }
            #expect(try await Self.keys(client).count == 1)
            #expect(try await one.download(token: try #require(records[1].linkToken)) == bytes)
        }
    }
}

extension PostgresStore {
    /// The one value `sql` answers with.
    fileprivate static func single<T: PostgresDecodable & Sendable>(
        _ type: T.Type, _ sql: PostgresQuery, _ connection: PostgresConnection
    ) async throws -> T {
        for try await value in try await connection.query(sql, logger: Logger(label: "test")).decode(T.self) { return value }
        throw PostgresFailure.missingHistoryRow
    }
}
