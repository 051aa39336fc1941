import Crypto
import NIOCore
import ShareKit

/// The part of appending to an upload that is the same on every store: arriving buffers are checked against the
/// upload's length, gathered into chunks that end at multiples of `chunk` bytes from the upload's start (several
/// whole ones at once when a buffer that large arrives), hashed and handed to the store's `write`, one chunk being
/// written while the next arrives; where it stopped is known however the body ends.
package struct UploadReceiver {
    package let length: Int64
    /// The size chunks are cut to: `chunkBytes`, or an object store's part.
    package let chunk: Int
    /// The bytes written: on an error, those before it.
    package private(set) var offset: Int64
    /// The hash of the bytes written.
    package private(set) var hash: SHA256
    /// The size of a write: a store's chunk, and few enough calls for the file system or the database.
    package static let chunkBytes = 1_048_576

    package init(length: Int64, offset: Int64, hash: SHA256, chunk: Int = Self.chunkBytes) {
        self.length = length
        self.chunk = chunk
        self.offset = offset
        self.hash = hash
    }

    package var isComplete: Bool { offset == length }

    /// Receives `body`, writing each chunk with `write` at its offset. When the body breaks off, what arrived
    /// before is written still.
    package mutating func receive<Body: AsyncSequence>(
        _ body: Body, write: @escaping @Sendable (ByteBuffer, _ offset: Int64) async throws -> Void
    ) async throws where Body.Element == ByteBuffer {
        var writing = ChunkWriting(write: write, offset: offset, hash: hash)
        defer { (offset, hash) = (writing.written, writing.hash) }
        // Two chunks' buffers, each filled again once its write is done: the allocator is asked for no more.
        var chunks = ChunkGathering(chunkBytes: chunk, startingAt: offset)
        do {
            for try await buffer in body {
                guard Int64(chunks.gathered.readableBytes + buffer.readableBytes) <= length - writing.received else {
                    throw ShareError.invalidField("Upload-Length", "is \(length) bytes: the body goes past it")
                }
                var buffer = buffer
                if chunks.gathered.readableBytes == 0, chunks.target == chunk, buffer.readableBytes >= chunk {
                    _ = try await writing.start(buffer.readSlice(length: buffer.readableBytes / chunk * chunk)!)
                }
                try await chunks.add(buffer) { chunk in try await writing.start(chunk) }
            }
        } catch {
            if chunks.gathered.readableBytes > 0 { _ = try? await writing.start(chunks.gathered) }
            _ = try? await writing.finish()
            throw error
        }
        if chunks.gathered.readableBytes > 0 { _ = try await writing.start(chunks.gathered) }
        _ = try await writing.finish()
    }
}

/// Chunks written one at a time, the next one hashed and gathered while the one before is being written.
private struct ChunkWriting {
    let write: @Sendable (ByteBuffer, Int64) async throws -> Void
    /// The bytes whose write has completed, and their hash.
    private(set) var written: Int64
    private(set) var hash: SHA256
    private var pending: (task: Task<Void, any Error>, chunk: WrittenChunk, hash: SHA256)?

    init(write: @escaping @Sendable (ByteBuffer, Int64) async throws -> Void, offset: Int64, hash: SHA256) {
        self.write = write
        self.written = offset
        self.hash = hash
    }

    /// The bytes handed to `start`, written or being written.
    var received: Int64 { written + Int64(pending?.chunk.bytes ?? 0) }

    /// Starts writing `chunk` once the chunk before it is written; returns that one's buffer, free to fill again.
    mutating func start(_ chunk: ByteBuffer) async throws -> ByteBuffer? {
        var next = pending?.hash ?? hash
        chunk.withUnsafeReadableBytes { next.update(bufferPointer: $0) }
        let done = try await finish()
        let (write, at, held) = (self.write, written, WrittenChunk(chunk))
        pending = (Task { try await write(held.buffer, at) }, held, next)
        return done
    }

    /// Waits for the chunk being written; returns its buffer.
    mutating func finish() async throws -> ByteBuffer? {
        guard let pending else { return nil }
        self.pending = nil
        try await pending.task.value
        written += Int64(pending.chunk.bytes)
        hash = pending.hash
        return pending.chunk.take()
    }
}

/// A chunk being written, held apart from the task that writes it, so that once written its buffer can be taken
/// back with no other reference to it and filled again in place.
private final class WrittenChunk: @unchecked Sendable {
    private(set) var buffer: ByteBuffer
    let bytes: Int

    init(_ buffer: ByteBuffer) {
        self.buffer = buffer
        bytes = buffer.readableBytes
    }

    /// The buffer, which this holds no more.
    func take() -> ByteBuffer {
        defer { buffer = ByteBuffer() }
        return buffer
    }
}
