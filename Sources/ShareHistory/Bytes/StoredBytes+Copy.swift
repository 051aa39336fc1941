import Crypto
import NIOCore

extension StoredBytes {
    /// Hands every byte to `sink` in pieces of `pieceBytes` (the last one shorter) and returns the SHA-256 of what
    /// was read, so that a copy into another store can be checked against the hash the bytes are named by.
    package func copy(inPiecesOf pieceBytes: Int, to sink: (ByteBuffer) async throws -> Void) async throws -> (hash: String, bytes: Int64) {
        var hash = SHA256()
        var pieces = ChunkGathering(chunkBytes: pieceBytes)
        var copied: Int64 = 0
        try await send(0..<size) { chunk in
            chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
            copied += Int64(chunk.readableBytes)
            try await pieces.add(chunk) { piece in
                try await sink(piece)
                return piece
            }
        }
        if pieces.gathered.readableBytes > 0 { try await sink(pieces.gathered) }
        return (hash.hex(), copied)
    }

    /// The SHA-256 of the first `end` bytes, read through.
    package func digest(upTo end: Int64) async throws -> SHA256 {
        var hash = SHA256()
        try await send(0..<end) { chunk in chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) } }
        return hash
    }
}
