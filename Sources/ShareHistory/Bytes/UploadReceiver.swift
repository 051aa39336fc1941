import Crypto
import NIOCore
import ShareKit

/// The part of appending to an upload that is the same on every store: arriving buffers are checked against the
/// upload's length, gathered into chunks of `chunkBytes`, hashed and handed to the store's `write`; where it stopped
/// is known however the body ends.
package struct UploadReceiver {
    package let length: Int64
    package private(set) var offset: Int64
    package private(set) var hash: SHA256
    /// The size of a write: a store's chunk, and few enough calls for the file system or the database.
    package static let chunkBytes = 1_048_576

    package init(length: Int64, offset: Int64, hash: SHA256) {
        self.length = length
        self.offset = offset
        self.hash = hash
    }

    package var isComplete: Bool { offset == length }

    /// Receives `body`, writing each chunk with `write` at its offset. When the body breaks off, what arrived
    /// before is written still, and `offset` and `hash` are those of every byte written.
    package mutating func receive<Body: AsyncSequence>(
        _ body: Body, write: (ByteBuffer, _ offset: Int64) async throws -> Void
    ) async throws where Body.Element == ByteBuffer {
        var gathered = ByteBuffer()
        do {
            for try await buffer in body {
                guard Int64(gathered.readableBytes + buffer.readableBytes) <= length - offset else {
                    throw ShareError.invalidField("Upload-Length", "is \(length) bytes: the body goes past it")
                }
                if gathered.readableBytes == 0, buffer.readableBytes >= Self.chunkBytes {
                    try await written(buffer, write)
                    continue
                }
                var buffer = buffer
                gathered.writeBuffer(&buffer)
                if gathered.readableBytes >= Self.chunkBytes {
                    try await written(gathered, write)
                    gathered.clear()
                }
            }
        } catch {
            if gathered.readableBytes > 0 { try await written(gathered, write) }
            throw error
        }
        if gathered.readableBytes > 0 { try await written(gathered, write) }
    }

    private mutating func written(_ chunk: ByteBuffer, _ write: (ByteBuffer, Int64) async throws -> Void) async throws {
        try await write(chunk, offset)
        chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
        offset += Int64(chunk.readableBytes)
    }
}
