import Crypto
import NIOCore

/// A blob whose bytes a store keeps with the history: a file beside SQLite's database, chunks in PostgreSQL.
public struct HeldBlob: Sendable {
    public let hash: String
    public let size: Int64
    public let bytes: any StoredBytes

    public init(hash: String, size: Int64, bytes: any StoredBytes) {
        self.hash = hash
        self.size = size
        self.bytes = bytes
    }
}

/// A store whose blobs can move into a bucket one at a time (`shared files copy --to s3`).
public protocol BlobMoving: Sendable {
    /// Up to `limit` blobs whose bytes are still kept with the history, in the order of their hashes, after `hash`.
    func heldBlobs(after hash: String?, limit: Int) async throws -> [HeldBlob]
    /// Records that blob `hash` is object `object` from now on and lets go of the bytes kept with the history; false
    /// when no share holds that blob any more, or it moved already.
    func moveBlob(_ hash: String, to object: String) async throws -> Bool
}

/// Moves every blob a store keeps with the history into a bucket: each written as the object of its hash, read back
/// and hashed, and only then recorded as moved, which lets the store's own copy go. A copy cut off at any point is
/// run again: what moved is not listed any more, and an object written but not recorded is written again in place.
public struct BlobCopy: Sendable {
    let store: any BlobMoving
    let bucket: any BlobBucket

    public init(store: any BlobMoving, bucket: any BlobBucket) {
        self.store = store
        self.bucket = bucket
    }

    /// The bucket's key of the blob of `hash`.
    public static func key(of hash: String) -> String { "blobs/sha256-\(hash)" }

    /// Moves every blob, telling `moved` of each one: how many moved and their bytes.
    public func run(moved: @Sendable (HeldBlob) -> Void = { _ in }) async throws -> (count: Int, bytes: Int64) {
        var (count, bytes) = (0, Int64(0))
        var after: String?
        while true {
            let blobs = try await store.heldBlobs(after: after, limit: 100)
            guard let last = blobs.last else { return (count, bytes) }
            for blob in blobs {
                let key = Self.key(of: blob.hash)
                try await write(blob, as: key)
                try await check(blob, key)
                guard try await store.moveBlob(blob.hash, to: key) else {
                    // Purged meanwhile: nothing will name the object.
                    try await bucket.delete(key)
                    continue
                }
                (count, bytes) = (count + 1, bytes + blob.size)
                moved(blob)
            }
            after = last.hash
        }
    }

    /// Writes the blob's bytes as object `key`: in one request when they fit one part, else as a multipart upload,
    /// aborted when it fails.
    private func write(_ blob: HeldBlob, as key: String) async throws {
        let partBytes = UploadPart.bytes(forLength: blob.size)
        guard blob.size > Int64(partBytes) else {
            var whole = ByteBuffer()
            try await blob.bytes.send(0..<blob.size) { chunk in whole.writeImmutableBuffer(chunk) }
            return try await bucket.put(key, whole)
        }
        let upload = try await bucket.startUpload(key)
        do {
            var parts: [UploadPart] = []
            _ = try await blob.bytes.copy(inPiecesOf: partBytes) { part in
                let number = parts.count + 1
                parts.append(UploadPart(number: number, etag: try await bucket.putPart(key, upload: upload, number: number, part)))
            }
            try await bucket.completeUpload(key, upload: upload, parts: parts, length: blob.size)
        } catch {
            try? await bucket.abortUpload(key, upload: upload)
            throw error
        }
    }

    /// Reads object `key` back whole: its SHA-256 must be the blob's.
    private func check(_ blob: HeldBlob, _ key: String) async throws {
        guard try await bucket.bytes(of: key, size: blob.size, hash: blob.hash).digest(upTo: blob.size).hex() == blob.hash else {
            try? await bucket.delete(key)
            throw StoreError.files(action: "copy a share's bytes to the \(bucket.name)", reason: "object \(key) read back differs from its bytes")
        }
    }
}
