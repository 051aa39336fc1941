import NIOCore
import ShareHistory

/// One file of a share that holds several, as bytes to send: its range of the share's bytes.
struct FileOfBundle: StoredBytes {
    let files: any StoredBytes
    /// Where it lies in the share's bytes.
    let span: Range<Int64>

    var size: Int64 { Int64(span.count) }
    var hash: String { "\(files.hash)-\(span.lowerBound)-\(span.upperBound)" }

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        try await files.send(shifted(range), to: sink)
    }

    func open(_ range: Range<Int64>) async throws -> OpenedBytes {
        try await files.open(shifted(range))
    }

    private func shifted(_ range: Range<Int64>) -> Range<Int64> {
        (span.lowerBound + range.lowerBound)..<(span.lowerBound + range.upperBound)
    }
}
