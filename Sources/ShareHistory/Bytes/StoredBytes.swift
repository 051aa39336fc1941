import NIOCore

/// The bytes behind a share, as a store keeps them: in a file beside a SQLite database, in chunks of a PostgreSQL
/// table. The server sends any range of them without knowing which.
public protocol StoredBytes: Sendable {
    var size: Int64 { get }
    /// Their SHA-256 in hex: what two shares of the same bytes have in common. Never shown to a recipient.
    var hash: String { get }
    /// Hands the bytes of `range` to `sink` in order, a chunk at a time, each once `sink` took the one before.
    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws
}
