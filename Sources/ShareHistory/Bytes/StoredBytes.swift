import NIOCore

/// The bytes behind a share, as a store keeps them: in a file beside a SQLite database, in chunks of a PostgreSQL
/// table, in an object of a bucket. The server sends any range of them without knowing which.
public protocol StoredBytes: Sendable {
    var size: Int64 { get }
    /// Their SHA-256 in hex: what two shares of the same bytes have in common. Never shown to a recipient.
    var hash: String { get }
    /// Hands the bytes of `range` to `sink` in order, a chunk at a time, each once `sink` took the one before.
    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws
    /// Begins reading `range`, so that a store that does not answer fails a request before its answer begins (a
    /// 503 rather than a body cut off); what is left is handing the bytes over. Local bytes begin when sent.
    func open(_ range: Range<Int64>) async throws -> OpenedBytes
    /// A URL anyone holding it reads the bytes with for `seconds`, from a bucket; nil for local bytes.
    func presignedURL(validFor seconds: Int) -> String?
    /// The path of the file on this machine that holds exactly these bytes, which a server can have the kernel send;
    /// nil when they are elsewhere.
    var file: String? { get }
    /// The bucket's key of these bytes, when they are an object of one.
    var object: String? { get }
}

extension StoredBytes {
    public func open(_ range: Range<Int64>) async throws -> OpenedBytes {
        OpenedBytes { sink in try await send(range, to: sink) }
    }

    public func presignedURL(validFor seconds: Int) -> String? { nil }

    public var file: String? { nil }

    public var object: String? { nil }
}

/// A range of stored bytes whose reading has begun.
public struct OpenedBytes: Sendable {
    private let sending: @Sendable (_ sink: (ByteBuffer) async throws -> Void) async throws -> Void

    public init(_ sending: @escaping @Sendable (_ sink: (ByteBuffer) async throws -> Void) async throws -> Void) {
        self.sending = sending
    }

    /// Hands the bytes to `sink` in order, each chunk once `sink` took the one before.
    public func send(to sink: (ByteBuffer) async throws -> Void) async throws {
        try await sending(sink)
    }
}
