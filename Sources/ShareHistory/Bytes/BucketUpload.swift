import Crypto
import NIOCore
import ShareKit

/// An upload in progress into a bucket, as the database holds it: the object it becomes, the store's multipart upload
/// (none for an empty file), the parts stored, and the bytes after them, short of a part, which the next request's
/// bytes complete.
public struct BucketUpload: Sendable {
    public let key: String
    public let multipart: String?
    public let length: Int64
    public let received: Int64
    public let parts: [UploadPart]
    public let tail: ByteBuffer

    public init(key: String, multipart: String?, length: Int64, received: Int64, parts: [UploadPart], tail: ByteBuffer) {
        self.key = key
        self.multipart = multipart
        self.length = length
        self.received = received
        self.parts = parts
        self.tail = tail
    }

    public var partBytes: Int { UploadPart.bytes(forLength: length) }

    /// The bucket's key of a new upload's object: its own, so that two uploads of the same bytes never meet until one
    /// of them is kept.
    public static func key(of upload: String) -> String { "blobs/\(upload)" }
}

/// Receives a request's bytes into a bucket upload, as an `UploadReceiver` with chunks of the upload's part size hands
/// them over: each whole part to the bucket (under a part number reserved first, so that two requests racing for the
/// same offset never overwrite each other's part), and what is left short of a part when the body ends to the
/// database with the upload, to start the next request's first part with.
package struct BucketUploadWriting: Sendable {
    let bucket: any BlobBucket
    let upload: BucketUpload
    /// Reserves the upload's next part number.
    let reserve: @Sendable () async throws -> Int
    /// Records that the upload holds `to` bytes, if it still holds `from`: with `part` stored, and `tail` after its
    /// parts.
    let record: @Sendable (_ part: UploadPart?, _ tail: ByteBuffer, _ from: Int64, _ to: Int64) async throws -> Void

    package init(
        bucket: any BlobBucket, upload: BucketUpload, reserve: @escaping @Sendable () async throws -> Int,
        record: @escaping @Sendable (UploadPart?, ByteBuffer, Int64, Int64) async throws -> Void
    ) {
        self.bucket = bucket
        self.upload = upload
        self.reserve = reserve
        self.record = record
    }

    package func write(_ chunk: ByteBuffer, at offset: Int64) async throws {
        guard let multipart = upload.multipart else { throw ShareError.uploadOffset(held: upload.received) }
        let partBytes = upload.partBytes
        let inPart = Int(offset % Int64(partBytes))
        var bytes = chunk
        if inPart > 0 {
            // Only a request's first chunk starts inside a part: after the tail the database holds.
            guard offset == upload.received, upload.tail.readableBytes == inPart else { throw ShareError.uploadOffset(held: upload.received) }
            bytes = upload.tail
            bytes.writeImmutableBuffer(chunk)
        }
        var start = offset - Int64(inPart)
        var held = offset
        while bytes.readableBytes >= partBytes || (bytes.readableBytes > 0 && start + Int64(bytes.readableBytes) == upload.length) {
            guard let part = bytes.readSlice(length: min(partBytes, bytes.readableBytes)) else { break }
            let number = try await reserve()
            let etag = try await bucket.putPart(upload.key, upload: multipart, number: number, part)
            let end = start + Int64(part.readableBytes)
            try await record(UploadPart(number: number, etag: etag), ByteBuffer(), held, end)
            (start, held) = (end, end)
        }
        if bytes.readableBytes > 0 {
            try await record(nil, bytes, held, start + Int64(bytes.readableBytes))
        }
    }
}

/// What a store keeps of its uploads into a bucket; receiving, completing and hashing them is `BucketUploads`'.
package protocol BucketUploadRecords: Sendable {
    /// Upload `id` as the database holds it.
    func bucketUpload(_ id: String) async throws -> BucketUpload
    /// Takes upload `id`'s next part number, which no other request gets.
    func reservePart(_ id: String) async throws -> Int
    /// Records that upload `id` holds `to` bytes, if it holds `from`: `part` stored in the bucket, `tail` after its parts.
    func recordInBucket(_ id: String, part: UploadPart?, tail: ByteBuffer, from: Int64, to: Int64, now: Timestamp) async throws
}

/// Uploads into a bucket the same on every store: a request's bytes received part by part, the whole made an object.
package enum BucketUploads {
    /// Receives `body` into upload `id`, which holds `upload.received` bytes; returns what it holds after. The hash of
    /// its bytes so far is kept in `digests` when this process saw them all; bytes another node received are hashed
    /// once the object is whole.
    package static func receive<Body: AsyncSequence>(
        _ id: String, _ upload: BucketUpload, _ body: Body, bucket: any BlobBucket, records: some BucketUploadRecords, digests: UploadDigests,
        now: Timestamp
    ) async throws -> Int64 where Body.Element == ByteBuffer {
        let known = upload.received == 0 ? SHA256() : digests.take(id, at: upload.received)
        var receiver = UploadReceiver(length: upload.length, offset: upload.received, hash: known ?? SHA256(), chunk: upload.partBytes)
        let writing = BucketUploadWriting(
            bucket: bucket, upload: upload, reserve: { try await records.reservePart(id) },
            record: { part, tail, from, to in try await records.recordInBucket(id, part: part, tail: tail, from: from, to: to, now: now) })
        defer { if known != nil { digests.keep(id, receiver.hash, at: receiver.offset) } }
        try await receiver.receive(body) { chunk, at in try await writing.write(chunk, at: at) }
        return receiver.offset
    }

    /// Makes whole upload `id` its object in the bucket; returns the hash of its bytes (the one `digests` kept, else
    /// read back from the object).
    package static func complete(
        _ id: String, bucket: any BlobBucket, records: some BucketUploadRecords, digests: UploadDigests
    ) async throws -> String {
        let upload = try await records.bucketUpload(id)
        if let multipart = upload.multipart {
            try await bucket.completeUpload(upload.key, upload: multipart, parts: upload.parts, length: upload.length)
        } else {
            try await bucket.put(upload.key, ByteBuffer())
        }
        let hash = try await digests.hash(of: id, upTo: upload.length, reading: bucket.bytes(of: upload.key, size: upload.length, hash: ""))
        return hash.hex()
    }
}
