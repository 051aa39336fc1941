import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit

/// Uploads into the bucket (`[files] store = "s3"`): each a multipart upload whose parts, and the bytes after them, are
/// recorded here chunk by chunk, so that a `HEAD` on any node says what is durably held.
extension PostgresHistory: BucketUploadRecords {
    func appendInBucket<Body: AsyncSequence>(
        _ id: String, _ pending: PendingUpload, _ body: Body, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer {
        let upload = try await bucketUpload(id)
        let offset = try await BucketUploads.receive(id, upload, body, bucket: try bucket(), records: self, digests: store.digests, now: now)
        guard offset == upload.length else {
            return UploadStatus(id: id, length: upload.length, offset: offset, expiresAt: UploadStatus.expiry(touchedAt: now))
        }
        let hash = try await BucketUploads.complete(id, bucket: try bucket(), records: self, digests: store.digests)
        let record = try await finishUpload(id, pending, hash: hash, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: upload.length, offset: upload.length, expiresAt: UploadStatus.expiry(touchedAt: now), share: record)
    }

    func bucket() throws -> any BlobBucket {
        try store.bucket.required(to: "append to an upload")
    }

    package func bucketUpload(_ id: String) async throws -> BucketUpload {
        let found = try await store.read { connection -> BucketUpload? in
            let rows = try await connection.query(
                "SELECT object, multipart, length, received, parts, tail FROM share_upload WHERE id = \(id) AND object IS NOT NULL",
                logger: store.logger)
            for try await (object, multipart, length, received, parts, tail) in rows.decode((String, String?, Int64, Int64, String, ByteBuffer).self)
            {
                return BucketUpload(
                    key: object, multipart: multipart, length: length, received: received, parts: UploadPart.parse(parts), tail: tail)
            }
            return nil
        }
        guard let found else { throw ShareError.uploadNotFound(id: id) }
        return found
    }

    package func reservePart(_ id: String) async throws -> Int {
        try await store.write { connection in
            let rows = try await connection.query(
                "UPDATE share_upload SET next_part = next_part + 1 WHERE id = \(id) RETURNING next_part - 1", logger: store.logger)
            for try await number in rows.decode(Int.self) {
                guard number <= 10_000 else { throw ShareError.uploadOffset(held: try await received(id, connection)) }
                return number
            }
            throw ShareError.uploadNotFound(id: id)
        }
    }

    package func recordInBucket(_ id: String, part: UploadPart?, tail: ByteBuffer, from: Int64, to: Int64, now: Timestamp) async throws {
        let line = part.map { UploadPart.lines([$0]) } ?? ""
        try await store.write { connection in
            let rows = try await connection.query(
                """
                UPDATE share_upload SET received = \(to), parts = parts || \(line), tail = \(tail), touched_at = \(now.millisecondsSinceEpoch)
                WHERE id = \(id) AND received = \(from) RETURNING id
                """, logger: store.logger)
            for try await _ in rows.decode(String.self) { return }
            throw ShareError.uploadOffset(held: try await received(id, connection))
        }
    }
}
