import NIOCore
import ShareHistory
import ShareKit

/// The bucket `[files] store = "s3"` names, as the history's stores use it: every failure of the object store becomes
/// `ShareError.objectStoreUnreachable`, which a request answers with a 503 naming the store.
public struct S3Bucket: BlobBucket {
    public let client: S3Client

    public init(client: S3Client) {
        self.client = client
    }

    public var name: String { client.location.description }

    public func startUpload(_ key: String) async throws -> String {
        try await answering { try await client.startMultipart(key) }
    }

    public func putPart(_ key: String, upload: String, number: Int, _ bytes: ByteBuffer) async throws -> String {
        let hash = bytes.withUnsafeReadableBytes { SignatureV4.sha256($0) }
        return try await answering { try await client.putPart(key, upload: upload, number: number, bytes, sha256: hash) }
    }

    public func completeUpload(_ key: String, upload: String, parts: [UploadPart], length: Int64) async throws {
        try await answering {
            do {
                try await client.completeMultipart(key, upload: upload, parts: parts.map { ($0.number, $0.etag) })
            } catch let failure as S3Failure where failure.code == "NoSuchUpload" {
                guard try await client.size(of: key) == length else { throw failure }
            }
        }
    }

    public func abortUpload(_ key: String, upload: String) async throws {
        try await answering { try await client.abortMultipart(key, upload: upload) }
    }

    public func put(_ key: String, _ bytes: ByteBuffer) async throws {
        let hash = bytes.withUnsafeReadableBytes { SignatureV4.sha256($0) }
        try await answering { try await client.put(key, bytes, sha256: hash) }
    }

    public func delete(_ key: String) async throws {
        try await answering { try await client.delete(key) }
    }

    public func bytes(of key: String, size: Int64, hash: String) -> any StoredBytes {
        S3Object(client: client, key: key, size: size, hash: hash)
    }

    public func check() async throws {
        try await answering { try await client.checkBucket() }
    }

    public func answers() async -> Bool {
        (try? await client.within(.seconds(2)).list(limit: 1)) != nil
    }
}

/// Runs a call to the store, its failure told as the domain's.
func answering<T>(_ call: () async throws -> T) async throws -> T {
    do {
        return try await call()
    } catch let failure as S3Failure {
        throw ShareError.objectStoreUnreachable(failure.description)
    }
}

/// An object's bytes, streamed from the store a range at a time as the sink takes them.
struct S3Object: StoredBytes {
    let client: S3Client
    let key: String
    let size: Int64
    let hash: String

    var object: String? { key }

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        try await open(range).send(to: sink)
    }

    func presignedURL(validFor seconds: Int) -> String? {
        client.presignedURL(of: key, for: seconds)
    }

    /// Asks the store for `range` now; its bytes are read as the sink takes them.
    func open(_ range: Range<Int64>) async throws -> OpenedBytes {
        guard !range.isEmpty else { return OpenedBytes { _ in } }
        let object = try await answering { try await client.get(key, range: range.lowerBound...(range.upperBound - 1)) }
        guard let object else {
            throw StoreError.files(action: "read a share's bytes", reason: "the object \(key) is missing from the \(client.location.description)")
        }
        let store = client.location.description
        return OpenedBytes { sink in
            var sent: Int64 = 0
            do {
                for try await buffer in object.body {
                    sent += Int64(buffer.readableBytes)
                    try await sink(buffer)
                }
            } catch let failure as S3Failure {
                throw ShareError.objectStoreUnreachable(failure.description)
            }
            guard sent == Int64(range.count) else {
                throw ShareError.objectStoreUnreachable(
                    S3Failure.unreachable(store: store, reason: "it sent \(sent) of \(range.count) bytes").description)
            }
        }
    }
}
