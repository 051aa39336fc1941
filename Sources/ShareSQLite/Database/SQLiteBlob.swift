import NIOCore
import ShareHistory
import _NIOFileSystem

/// The bytes of a share on SQLite: a file beside the database, read off the event loops by NIO's file system.
struct SQLiteBlob: StoredBytes {
    let path: String
    let hash: String
    let size: Int64

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { file in
            for try await chunk in file.readChunks(in: range, chunkLength: .kibibytes(256)) { try await sink(chunk) }
        }
    }
}
