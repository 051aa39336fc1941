import Foundation
import ShareTestSupport
import Testing

@testable import ShareServer

/// Seeded property tests over the server's own readers of raw input.
@Suite struct ServerFuzzTests {
    @Test func theImportSplitterNeverCrashesAndChunkingChangesNothing() {
        var generator = SplitMix(seed: 1_000_000)
        for _ in 0..<3000 {
            let bytes = generator.hostileBytes(maxPieces: 40)
            let whole = Self.split(bytes, chunk: bytes.count + 1)
            let pieces = Self.split(bytes, chunk: Int.random(in: 1...7, using: &generator))
            #expect(whole.records == pieces.records && whole.failure == pieces.failure, "\(bytes)")
        }
    }

    @Test func jsonBodiesDecodeOrNameTheProblem() {
        var generator = SplitMix(seed: 42)
        for _ in 0..<5000 {
            let body = Data(generator.hostileBytes(maxPieces: 16))
            do {
                _ = try JSONBody.decode(NewShareBody.self, from: body)
            } catch {
                #expect(!error.detail.isEmpty)
            }
        }
    }

    @Test func pathsNormaliseToOneSpelling() {
        var generator = SplitMix(seed: 9)
        for _ in 0..<5000 {
            let path = RequestPath.normalize("/" + generator.hostileText(maxPieces: 10)[...])
            #expect(path.hasPrefix("/") && !path.contains("//"))
            #expect(RequestPath.normalize(path[...]) == path, "normalising twice changes nothing: \(path.debugDescription)")
        }
    }

    private static func split(_ bytes: [UInt8], chunk: Int) -> (records: [[UInt8]?], failure: Int?) {
        var splitter = RecordStreamSplitter(maxRecordBytes: 64)
        var records: [RecordStreamSplitter.Record] = []
        do {
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try splitter.feed(bytes[start..<min(bytes.count, start + chunk)], into: &records)
            }
            try splitter.finish()
            return (records.map(\.bytes), nil)
        } catch {
            return (records.map(\.bytes), error.line)
        }
    }
}
