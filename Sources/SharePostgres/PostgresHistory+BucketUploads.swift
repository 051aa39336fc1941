import Crypto
import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit

/// Uploads into the bucket (`[files] store = "s3"`): each a multipart upload whose parts, and the bytes after them, are
/// recorded here chunk by chunk, so that a `HEAD` on any node says what is durably held.
extension PostgresHistory {
    func appendInBucket<Body: AsyncSequence>(
        _ id: String, _ pending: PendingUpload, _ body: Body, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer {
        let bucket = try requireBucket()
        let upload = try await bucketUpload(id)
        // Bytes this node did not see are hashed once the object is whole, by reading it back.
        let known = pending.received == 0 ? SHA256() : store.digests.take(id, at: pending.received)
        var receiver = UploadReceiver(length: upload.length, offset: upload.received, hash: known ?? SHA256(), chunk: upload.partBytes)
        let writing = BucketUploadWriting(
            bucket: bucket, upload: upload, reserve: { try await reservePart(id) },
            record: { part, tail, from, to in try await recordInBucket(id, part: part, tail: tail, from: from, to: to, now: now) })
        do {
            try await receiver.receive(body) { chunk, at in try await writing.write(chunk, at: at) }
        } catch {
            if known != nil { store.digests.keep(id, receiver.hash, at: receiver.offset) }
            throw error
        }
        guard receiver.isComplete else {
            if known != nil { store.digests.keep(id, receiver.hash, at: receiver.offset) }
            return UploadStatus(id: id, length: upload.length, offset: receiver.offset, expiresAt: UploadStatus.expiry(touchedAt: now))
        }
        if known != nil { store.digests.keep(id, receiver.hash, at: receiver.offset) }
        let hash = try await completeInBucket(id, hash: store.digests.take(id, at: receiver.offset))
        let record = try await finishUpload(id, pending, hash: hash, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: upload.length, offset: upload.length, expiresAt: UploadStatus.expiry(touchedAt: now), share: record)
    }

    /// Makes the whole upload its object in the bucket; returns the hash of its bytes (`hash`'s, else read back).
    func completeInBucket(_ id: String, hash: SHA256?) async throws -> String {
        let bucket = try requireBucket()
        let upload = try await bucketUpload(id)
        if let multipart = upload.multipart {
            try await bucket.completeUpload(upload.key, upload: multipart, parts: upload.parts, length: upload.length)
        } else {
            try await bucket.put(upload.key, ByteBuffer())
        }
        if let hash { return hash.hex() }
        var read = SHA256()
        try await bucket.bytes(of: upload.key, size: upload.length, hash: "").send(0..<upload.length) { chunk in
            chunk.withUnsafeReadableBytes { read.update(bufferPointer: $0) }
        }
        return read.hex()
    }

    private func requireBucket() throws -> any BlobBucket {
        guard let bucket = store.bucket else {
            throw StoreError.files(action: "append to an upload", reason: "it goes to a bucket, and [files] names none")
        }
        return bucket
    }

    /// Upload `id` as the bucket sees it: its object, its multipart upload, the parts stored and the bytes after them.
    private func bucketUpload(_ id: String) async throws -> BucketUpload {
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

    /// Takes the upload's next part number, which no other request gets.
    private func reservePart(_ id: String) async throws -> Int {
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

    /// Records that the upload holds `to` bytes, if it holds `from`: `part` stored in the bucket, `tail` after its parts.
    private func recordInBucket(_ id: String, part: UploadPart?, tail: ByteBuffer, from: Int64, to: Int64, now: Timestamp) async throws {
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
