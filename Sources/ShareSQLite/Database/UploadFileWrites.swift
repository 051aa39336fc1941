import CFileSync
import Foundation
import NIOCore
import ShareHistory
import Synchronization

/// How an upload's chunks reach its file. A chunk of whole pages (its memory, offset and length) goes around the page
/// cache (`O_DIRECT`): the upload is synchronized to the disk anyway, and copying each byte into fresh cache pages cost
/// the kernel as much as hashing it. Any other chunk, and every one on a file system that refuses such writes, goes
/// through the cache and is started for the disk at once, so that the final `fsync` waits only for the last ones.
final class UploadFileWrites: Sendable {
    private static let pageBytes = ChunkGathering.pageBytes
    private static let directFlag = share_direct_writes_flag()
    /// False once the file system refused a write around its cache: it is not asked again.
    private let aroundCache = Atomic<Bool>(directFlag != 0)

    /// Writes `chunk` at `offset` of the file open as `descriptor`, blocking until it is written.
    func write(_ chunk: ByteBuffer, at offset: Int64, to descriptor: Int32) throws {
        try chunk.withUnsafeReadableBytes { bytes in
            var written = 0
            if aroundCache.load(ordering: .relaxed), Self.isWholePages(bytes, at: offset) {
                let flags = fcntl(descriptor, F_GETFL)
                if flags >= 0, fcntl(descriptor, F_SETFL, flags | Self.directFlag) == 0 {
                    defer { _ = fcntl(descriptor, F_SETFL, flags) }
                    written = try write(bytes, at: offset, to: descriptor, direct: true)
                } else {
                    aroundCache.store(false, ordering: .relaxed)
                }
            }
            guard written < bytes.count else { return }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            _ = try write(rest, at: offset + Int64(written), to: descriptor, direct: false)
            _ = share_start_writeback(descriptor, offset + Int64(written), Int64(rest.count))
        }
    }

    /// Writes `bytes` at `offset`; returns how many were written: all of them, but `direct` (around the cache), only
    /// those before the file system refused or a short write left the rest off a page's start.
    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64, to descriptor: Int32, direct: Bool) throws -> Int {
        var written = 0
        while written < bytes.count, !direct || written % Self.pageBytes == 0 {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + written)
            if count > 0 {
                written += count
                continue
            }
            let code = count == 0 ? EIO : errno
            if code == EINTR { continue }
            if direct, code == EINVAL {
                aroundCache.store(false, ordering: .relaxed)
                break
            }
            throw SQLiteBlobFiles.failure("write an upload's bytes", code)
        }
        return written
    }

    private static func isWholePages(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        return Int(bitPattern: start) % pageBytes == 0 && bytes.count % pageBytes == 0 && offset % Int64(pageBytes) == 0
    }
}
