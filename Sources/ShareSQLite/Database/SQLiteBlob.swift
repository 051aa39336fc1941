import Foundation
import NIOCore
import NIOPosix
import ShareHistory

/// The bytes of a share on SQLite: a file beside the database, read off the event loops a chunk ahead of the one
/// being sent, into two buffers the download reuses: however many downloads run, each holds about two chunks, and
/// the allocator is not asked for a new one per chunk (which glibc's arenas kept long after).
struct SQLiteBlob: StoredBytes {
    let path: String
    let hash: String
    let size: Int64

    var file: String? { path }

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        let file = try OpenFile(path)
        var (current, spare) = (ReusedChunk(), ReusedChunk())
        var position = range.lowerBound
        var length = try await file.fill(current, at: position, before: range.upperBound)
        while length > 0 {
            position += Int64(length)
            let (sending, filling, next) = (current, spare, position)
            async let ahead = file.fill(filling, at: next, before: range.upperBound)
            try await sink(sending.buffer)
            length = try await ahead
            (current, spare) = (filling, sending)
        }
    }
}

/// A chunk's buffer, filled on a pool thread while the other is sent; written in place when the connection has let
/// go of what it sent last.
private final class ReusedChunk: @unchecked Sendable {
    var buffer = ByteBufferAllocator().buffer(capacity: UploadReceiver.chunkBytes)
}

/// A file open for reading, closed with the last reference to it.
private final class OpenFile: Sendable {
    let descriptor: CInt
    let path: String

    init(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SQLiteBlobFiles.failure("open a share's file \(path)", errno) }
        (self.descriptor, self.path) = (descriptor, path)
    }

    deinit { close(descriptor) }

    /// Reads the chunk at `position` (up to `end`) into `chunk` on the thread pool: how many bytes it holds, 0 at
    /// `end`. A file that ends first is an error naming it.
    func fill(_ chunk: ReusedChunk, at position: Int64, before end: Int64) async throws -> Int {
        let count = Int(min(Int64(UploadReceiver.chunkBytes), end - position))
        guard count > 0 else { return 0 }
        return try await NIOThreadPool.singleton.runIfActive { [descriptor, path] in
            chunk.buffer.clear()
            var failure: CInt = 0
            let read = chunk.buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
                var done = 0
                while done < count {
                    let step = pread(descriptor, target.baseAddress! + done, count - done, off_t(position) + off_t(done))
                    if step < 0 && errno == EINTR { continue }
                    guard step > 0 else {
                        failure = step < 0 ? errno : 0
                        break
                    }
                    done += step
                }
                return done
            }
            guard read == count else {
                if failure != 0 { throw SQLiteBlobFiles.failure("read a share's file \(path)", failure) }
                throw StoreError.files(action: "read a share's bytes", reason: "\(path) ends before byte \(position + Int64(read))")
            }
            return read
        }
    }
}
