import NIOCore

/// A bucket of an S3-compatible object store that keeps the bytes behind shares in place of the store's own files or
/// chunks: each blob one object, each upload in progress one multipart upload. Its failures are
/// `ShareError.objectStoreUnreachable`, naming the store.
public protocol BlobBucket: Sendable {
    /// How the bucket is named in messages: `bucket share-files at https://s3.example.org`.
    var name: String { get }
    /// Starts the multipart upload that becomes object `key`: the store's id for it.
    func startUpload(_ key: String) async throws -> String
    /// Stores part `number` (1 to 10,000; any order, any gaps) of upload `upload`: its ETag.
    func putPart(_ key: String, upload: String, number: Int, _ bytes: ByteBuffer) async throws -> String
    /// Makes upload `upload` object `key`, of `parts` in order; an upload completed already, whose object has
    /// `length` bytes, is done too (a completion whose answer was lost).
    func completeUpload(_ key: String, upload: String, parts: [UploadPart], length: Int64) async throws
    /// Drops upload `upload` and its parts; one already gone (completed, aborted) is no error.
    func abortUpload(_ key: String, upload: String) async throws
    /// Stores `bytes` as object `key` in one request (an empty file, which a multipart upload cannot be).
    func put(_ key: String, _ bytes: ByteBuffer) async throws
    /// Deletes object `key`; one already gone is no error.
    func delete(_ key: String) async throws
    /// Object `key`'s bytes, to send.
    func bytes(of key: String, size: Int64, hash: String) -> any StoredBytes
    /// Throws, saying what is wrong, unless the bucket is there and these credentials may write to it and read it.
    func check() async throws
    /// Whether the bucket answers now, within two seconds (`/readyz`).
    func answers() async -> Bool
}

/// A part of a multipart upload, as completing it names it.
public struct UploadPart: Sendable, Equatable {
    public let number: Int
    public let etag: String

    public init(number: Int, etag: String) {
        self.number = number
        self.etag = etag
    }

    /// Parts as a database keeps them: a line each, its number, a space, its ETag.
    public static func lines(_ parts: [UploadPart]) -> String {
        parts.map { "\($0.number) \($0.etag)\n" }.joined()
    }

    public static func parse(_ lines: String) -> [UploadPart] {
        lines.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let number = Int(fields[0]) else { return nil }
            return UploadPart(number: number, etag: String(fields[1]))
        }
    }

    /// The size of every part of an upload of `length` bytes but its last: S3's smallest (5 MiB), or more for an
    /// upload that would otherwise take more than half of S3's 10,000 parts (the rest are for parts sent again).
    public static func bytes(forLength length: Int64) -> Int {
        let smallest: Int64 = 5 * 1_048_576
        let needed = (length + 4_999) / 5_000
        return Int(max(smallest, (needed + 1_048_575) / 1_048_576 * 1_048_576))
    }
}

extension BlobBucket {
    /// Does what a store queued for the bucket once nothing needed it: deletes `object`, or with `multipart` (not
    /// empty), aborts that upload.
    public func release(_ object: String, multipart: String) async throws {
        if multipart.isEmpty {
            try await delete(object)
        } else {
            try await abortUpload(object, upload: multipart)
        }
    }
}

extension Optional where Wrapped == any BlobBucket {
    /// The bucket bytes are in, for `action`; a failure when `[files]` names none (bytes kept in a bucket before the
    /// configuration stopped naming it).
    public func required(to action: String) throws -> any BlobBucket {
        guard let bucket = self else { throw StoreError.files(action: action, reason: "the bytes are in a bucket, and [files] names none") }
        return bucket
    }
}
