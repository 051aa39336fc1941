import NIOCore

/// Buffers as they arrive, cut into chunks of exactly `chunkBytes` (the last one may be shorter): the chunks an upload
/// writes, and those a copy into PostgreSQL stores. A chunk's buffer that comes back is filled again in place.
package struct ChunkGathering {
    package let chunkBytes: Int
    /// The bytes of the chunk not yet full.
    package private(set) var gathered: ByteBuffer
    /// The size the chunk being gathered ends at: the first one's may be smaller, to end where a whole one would.
    package private(set) var target: Int

    /// Chunks that end at multiples of `chunkBytes` counted from the start of the bytes, this one starting at `offset`.
    package init(chunkBytes: Int, startingAt offset: Int64 = 0) {
        self.chunkBytes = chunkBytes
        target = chunkBytes - Int(offset % Int64(chunkBytes))
        gathered = ByteBufferAllocator().buffer(capacity: chunkBytes)
    }

    /// Adds `buffer`, handing each chunk it fills to `full`, which may give back a buffer to gather the next one in.
    package mutating func add(_ buffer: ByteBuffer, full: (ByteBuffer) async throws -> ByteBuffer?) async throws {
        var buffer = buffer
        while var part = buffer.readSlice(length: min(buffer.readableBytes, target - gathered.readableBytes)), part.readableBytes > 0 {
            gathered.writeBuffer(&part)
            guard gathered.readableBytes == target else { continue }
            // Straight into `gathered`, so that no other name holds the buffer when it is cleared.
            gathered = try await full(gathered) ?? ByteBufferAllocator().buffer(capacity: chunkBytes)
            gathered.clear()
            target = chunkBytes
        }
    }
}
