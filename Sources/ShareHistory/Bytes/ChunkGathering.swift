import NIOCore

/// Buffers as they arrive, cut into chunks of exactly `chunkBytes` (the last one may be shorter): the chunks an upload
/// writes, and those a copy into PostgreSQL stores. A chunk's buffer that comes back is filled again in place. Each
/// chunk starts at a page's start in memory, which a file needs to take it around its cache.
package struct ChunkGathering {
    /// The size of the memory pages chunks start at.
    package static let pageBytes = 4096
    package let chunkBytes: Int
    /// The bytes of the chunk not yet full.
    package private(set) var gathered: ByteBuffer
    /// The size the chunk being gathered ends at: the first one's may be smaller, to end where a whole one would.
    package private(set) var target: Int

    /// Chunks that end at multiples of `chunkBytes` counted from the start of the bytes, this one starting at `offset`.
    package init(chunkBytes: Int, startingAt offset: Int64 = 0) {
        self.chunkBytes = chunkBytes
        target = chunkBytes - Int(offset % Int64(chunkBytes))
        gathered = ByteBufferAllocator().buffer(capacity: chunkBytes + Self.pageBytes)
        startAtPage()
    }

    /// Adds `buffer`, handing each chunk it fills to `full`, which may give back a buffer to gather the next one in.
    package mutating func add(_ buffer: ByteBuffer, full: (ByteBuffer) async throws -> ByteBuffer?) async throws {
        var buffer = buffer
        while var part = buffer.readSlice(length: min(buffer.readableBytes, target - gathered.readableBytes)), part.readableBytes > 0 {
            gathered.writeBuffer(&part)
            guard gathered.readableBytes == target else { continue }
            // Straight into `gathered`, so that no other name holds the buffer when it is cleared.
            gathered = try await full(gathered) ?? ByteBufferAllocator().buffer(capacity: chunkBytes + Self.pageBytes)
            gathered.clear()
            startAtPage()
            target = chunkBytes
        }
    }

    /// Moves the empty chunk's start to the first page's start in its memory, where a whole chunk still fits after it.
    private mutating func startAtPage() {
        let address = gathered.withVeryUnsafeBytes { Int(bitPattern: $0.baseAddress) }
        let skipped = (Self.pageBytes - address % Self.pageBytes) % Self.pageBytes
        guard gathered.capacity - skipped >= chunkBytes else { return }
        gathered.moveWriterIndex(forwardBy: skipped)
        gathered.moveReaderIndex(forwardBy: skipped)
    }
}
