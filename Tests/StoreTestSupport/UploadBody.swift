import NIOCore
import ShareHistory

/// Bytes as a request's body brings them to an upload: in pieces, and broken off when a test asks.
public enum UploadBody {
    /// A client that went away in the middle of its body.
    public struct BrokenOff: Error {}

    /// `bytes` in pieces of `piece` bytes, breaking off (`BrokenOff`) after `breaksAfter` of them.
    public static func of(
        _ bytes: some Collection<UInt8>, piece: Int = 65_536, breaksAfter: Int? = nil
    ) -> AsyncThrowingStream<ByteBuffer, any Error> {
        let bytes = Array(bytes)
        return AsyncThrowingStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: piece) {
                let end = min(bytes.count, start + piece, breaksAfter ?? .max)
                if end > start { continuation.yield(ByteBuffer(bytes: bytes[start..<end])) }
                if let breaksAfter, end >= breaksAfter { break }
            }
            continuation.finish(throwing: breaksAfter == nil ? nil : BrokenOff())
        }
    }
}

extension ShareStore {
    /// Everything the store sends of the share whose link has `token`, or of `range` of it; nil when no link opens.
    public func download(token: String, _ range: Range<Int64>? = nil) async throws -> [UInt8]? {
        guard let stored = try await openLink(token: token)?.bytes else { return nil }
        var received: [UInt8] = []
        try await stored.send(range ?? 0..<stored.size) { chunk in received += chunk.readableBytesView }
        return received
    }
}
