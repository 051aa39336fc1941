import Foundation
import GRDB
import NIOCore
import ShareHistory
import ShareKit

/// Uploads into the bucket (`[files] store = "s3"`): each a multipart upload whose parts, and the bytes after them, are
/// recorded here chunk by chunk.
extension SQLiteHistory: BucketUploadRecords {
    func appendInBucket<Body: AsyncSequence>(
        _ id: String, _ share: NewShare, at offset: Int64, _ body: Body, received: Int64, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer {
        guard store.appending.begin(id) else { throw ShareError.uploadOffset(held: received) }
        defer { store.appending.end(id) }
        let upload = try await bucketUpload(id)
        guard offset == upload.received else { throw ShareError.uploadOffset(held: upload.received) }
        let held = try await BucketUploads.receive(id, upload, body, bucket: try bucket(), records: self, digests: store.digests, now: now)
        guard held == upload.length else {
            return UploadStatus(id: id, length: upload.length, offset: held, expiresAt: UploadStatus.expiry(touchedAt: now))
        }
        let hash = try await BucketUploads.complete(id, bucket: try bucket(), records: self, digests: store.digests)
        let record = try await finishUpload(id, share, hash: hash, object: upload.key, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: upload.length, offset: upload.length, expiresAt: UploadStatus.expiry(touchedAt: now), share: record)
    }

    /// The multipart upload of `object`, when there is one and the file is not empty.
    func startMultipart(_ object: String?, length: Int64) async throws -> String? {
        guard let object, length > 0 else { return nil }
        return try await bucket().startUpload(object)
    }

    func bucket() throws -> any BlobBucket {
        try store.bucket.required(to: "append to an upload")
    }

    package func bucketUpload(_ id: String) async throws -> BucketUpload {
        let found = try await store.writer.read { db -> BucketUpload? in
            try Row.fetchOne(
                db, sql: "SELECT object, multipart, length, received, parts, tail FROM share_upload WHERE id = ? AND object IS NOT NULL",
                arguments: [id]
            ).map { row in
                let tail = (row["tail"] as Data?) ?? Data()
                return BucketUpload(
                    key: row["object"], multipart: row["multipart"], length: row["length"], received: row["received"],
                    parts: UploadPart.parse(row["parts"]), tail: ByteBuffer(bytes: tail))
            }
        }
        guard let found else { throw ShareError.uploadNotFound(id: id) }
        return found
    }

    package func reservePart(_ id: String) async throws -> Int {
        try await store.writer.write { db in
            guard
                let number = try Int.fetchOne(
                    db, sql: "UPDATE share_upload SET next_part = next_part + 1 WHERE id = ? RETURNING next_part - 1", arguments: [id])
            else { throw ShareError.uploadNotFound(id: id) }
            guard number <= 10_000 else { throw ShareError.uploadOffset(held: try Self.received(id, db)) }
            return number
        }
    }

    package func recordInBucket(_ id: String, part: UploadPart?, tail: ByteBuffer, from: Int64, to: Int64, now: Timestamp) async throws {
        let line = part.map { UploadPart.lines([$0]) } ?? ""
        try await SQLiteStore.storing {
            try await store.writer.write { db in
                try db.execute(
                    sql: "UPDATE share_upload SET received = ?, parts = parts || ?, tail = ?, touched_at = ? WHERE id = ? AND received = ?",
                    arguments: [to, line, Data(tail.readableBytesView), now.millisecondsSinceEpoch, id, from])
                guard db.changesCount == 1 else { throw ShareError.uploadOffset(held: try Self.received(id, db)) }
            }
        }
    }

    private static func received(_ id: String, _ db: Database) throws -> Int64 {
        guard let received = try Int64.fetchOne(db, sql: "SELECT received FROM share_upload WHERE id = ?", arguments: [id]) else {
            throw ShareError.uploadNotFound(id: id)
        }
        return received
    }
}
