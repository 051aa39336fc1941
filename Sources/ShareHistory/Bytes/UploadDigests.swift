import Crypto
import Foundation
import Synchronization

/// The SHA-256 of each upload's bytes so far, kept in memory between its requests, so that the last byte finishes
/// the hash rather than reading everything back. An upload resumed on another node, or after a restart, finds none
/// and its store hashes what it holds first.
package final class UploadDigests: Sendable {
    private let digests = Mutex<[String: (offset: Int64, hash: SHA256)]>([:])

    package init() {}

    /// The hash of upload `id`'s first `offset` bytes, if this process saw them; it is the caller's until given back.
    package func take(_ id: String, at offset: Int64) -> SHA256? {
        digests.withLock { digests in
            guard let kept = digests.removeValue(forKey: id), kept.offset == offset else { return nil }
            return kept.hash
        }
    }

    /// The hash of upload `id`'s first `offset` bytes: the one this process kept, else read back from `bytes`, what
    /// the store holds of the upload.
    package func hash(of id: String, upTo offset: Int64, reading bytes: some StoredBytes) async throws -> SHA256 {
        if let kept = take(id, at: offset) { return kept }
        return try await bytes.digest(upTo: offset)
    }

    package func keep(_ id: String, _ hash: SHA256, at offset: Int64) {
        digests.withLock { $0[id] = (offset, hash) }
    }

    package func forget(_ id: String) {
        _ = digests.withLock { $0.removeValue(forKey: id) }
    }
}

extension SHA256 {
    /// The hex digest, the form blobs are named and tagged by.
    package func hex() -> String {
        finalize().map { String(format: "%02x", $0) }.joined()
    }
}
