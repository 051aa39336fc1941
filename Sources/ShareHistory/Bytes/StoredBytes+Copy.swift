import Crypto
import NIOCore

extension StoredBytes {
    /// Hands every byte to `sink` in pieces of `pieceBytes` (the last one shorter) and returns the SHA-256 of what
    /// was read, so that a copy into another store can be checked against the hash the bytes are named by.
    package func copy(inPiecesOf pieceBytes: Int, to sink: (ByteBuffer) async throws -> Void) async throws -> (hash: String, bytes: Int64) {
        var hash = SHA256()
        var piece = ByteBuffer()
        var copied: Int64 = 0
        try await send(0..<size) { chunk in
            var chunk = chunk
            chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
            copied += Int64(chunk.readableBytes)
            while var part = chunk.readSlice(length: min(chunk.readableBytes, pieceBytes - piece.readableBytes)), part.readableBytes > 0 {
                piece.writeBuffer(&part)
                if piece.readableBytes == pieceBytes {
                    try await sink(piece)
                    piece = ByteBuffer()
                }
            }
        }
        if piece.readableBytes > 0 { try await sink(piece) }
        return (hash.hex(), copied)
    }
}
