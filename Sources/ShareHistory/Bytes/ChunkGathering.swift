import NIOCore

/// Buffers as they arrive, cut into chunks of exactly `chunkBytes` (the last one may be shorter): the chunks an upload
/// writes, and those a copy into PostgreSQL stores. A chunk's buffer that comes back is filled again in place.
package struct ChunkGathering {
    package let chunkBytes: Int
    /// The bytes of the chunk not yet full.
    package private(set) var gathered: ByteBuffer

    package init(chunkBytes: Int) {
        self.chunkBytes = chunkBytes
        gathered = ByteBufferAllocator().buffer(capacity: chunkBytes)
    }

    /// Adds `buffer`, handing each chunk it fills to `full`, which may give back a buffer to gather the next one in.
    package mutating func add(_ buffer: ByteBuffer, full: (ByteBuffer) async throws -> ByteBuffer?) async throws {
        var buffer = buffer
        while var part = buffer.readSlice(length: min(buffer.readableBytes, chunkBytes - gathered.readableBytes)), part.readableBytes > 0 {
            gathered.writeBuffer(&part)
            guard gathered.readableBytes == chunkBytes else { continue }
            // Straight into `gathered`, so that no other name holds the buffer when it is cleared.
            gathered = try await full(gathered) ?? ByteBufferAllocator().buffer(capacity: chunkBytes)
            gathered.clear()
        }
    }
}
