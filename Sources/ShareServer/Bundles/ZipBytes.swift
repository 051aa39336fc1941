import NIOCore
import ShareHistory
import ShareKit

/// The ZIP of a share's files as bytes to send, like a file's: any range of it is its records, made as they are
/// reached, around the share's bytes in that range, read in one go from the store however many files it spans.
struct ZipBytes: StoredBytes {
    let archive: ZipArchive
    let files: any StoredBytes

    var size: Int64 { archive.length }
    var hash: String { "zip-\(files.hash)" }

    func send(_ range: Range<Int64>, to sink: (ByteBuffer) async throws -> Void) async throws {
        try await open(range).send(to: sink)
    }

    func open(_ range: Range<Int64>) async throws -> OpenedBytes {
        let span = archive.dataSpan(in: range)
        let reading = span.isEmpty ? nil : try await files.open(span)
        let archive = archive
        return OpenedBytes { sink in
            var pieces = archive.pieces(in: range)
            var piece = pieces.next()
            var left: Int64 = 0
            // Records up to the next piece of data, whose length is then `left`.
            func sendRecords() async throws {
                while let current = piece {
                    switch current {
                    case .records(let bytes):
                        try await sink(ByteBuffer(bytes: bytes))
                        piece = pieces.next()
                    case .data(let part):
                        left = Int64(part.count)
                        return
                    }
                }
            }
            try await sendRecords()
            try await reading?.send { chunk in
                var chunk = chunk
                while chunk.readableBytes > 0 {
                    guard case .data = piece else { throw ZipBytesMismatch() }
                    let slice = chunk.readSlice(length: Int(min(Int64(chunk.readableBytes), left)))!
                    try await sink(slice)
                    left -= Int64(slice.readableBytes)
                    if left == 0 {
                        piece = pieces.next()
                        try await sendRecords()
                    }
                }
            }
            guard piece == nil else { throw ZipBytesMismatch() }
        }
    }
}

/// The share's bytes were not the files its record lists: the archive cannot be sent.
struct ZipBytesMismatch: Error {}
