import NIOCore
import PostgresNIO
import ShareHistory

/// The bytes of a share on PostgreSQL: chunks of `share_blob_chunk`, read one query a chunk, so that a slow
/// download holds a connection of the pool only while a chunk is read.
struct PostgresBlob: StoredBytes {
    let store: PostgresStore
    let seq: Int64
    let hash: String
    let size: Int64

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        var position = range.lowerBound
        while position < range.upperBound {
            guard let (start, bytes) = try await chunk(holding: position) else {
                throw StoreError.files(action: "read a share's bytes", reason: "no chunk holds byte \(position) of blob \(seq)")
            }
            let from = Int(position - start)
            let count = Int(min(Int64(bytes.readableBytes - from), range.upperBound - position))
            guard count > 0, let slice = bytes.getSlice(at: bytes.readerIndex + from, length: count) else {
                throw StoreError.files(action: "read a share's bytes", reason: "blob \(seq) ends before byte \(position)")
            }
            try await sink(slice)
            position += Int64(count)
        }
    }

    /// The chunk that holds byte `position`, and where it starts; read without the quick lane's limit, which a
    /// megabyte's read under load may outgrow, and which it would only read again.
    private func chunk(holding position: Int64) async throws -> (Int64, ByteBuffer)? {
        try await store.lease(statementTimeout: 0) { [seq, store] connection in
            let rows = try await connection.query(
                "SELECT start, bytes FROM share_blob_chunk WHERE blob = \(seq) AND start <= \(position) ORDER BY start DESC LIMIT 1",
                logger: store.logger)
            for try await row in rows.decode((Int64, ByteBuffer).self) { return row }
            return nil
        }
    }
}
