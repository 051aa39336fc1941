import Foundation
import ShareKit
import ShareTestSupport
import Testing

@Suite struct RecordJSONTests {
    private static let alphabet: [Unicode.Scalar] =
        Array("aZ09 ./\\\"'%_-é报告😀\u{301}\u{202E}\u{7F}\u{85}".unicodeScalars)
        + (0..<0x20).map { Unicode.Scalar($0)! }

    private func randomText(_ generator: inout SplitMix) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            text.unicodeScalars.append(Self.alphabet.randomElement(using: &generator)!)
        }
        return text
    }

    @Test func writesExactlyWhatTheWireEncoderWrites() throws {
        var generator = SplitMix(seed: 20_261_122)
        let encoder = WireJSON.encoder()
        for _ in 0..<2000 {
            let trashed = Bool.random(using: &generator)
            let thumbnail = Bool.random(using: &generator)
            let record = ShareRecord(
                id: randomText(&generator), name: randomText(&generator), folder: "/" + randomText(&generator),
                createdAt: Timestamp(
                    millisecondsSinceEpoch: Int64.random(
                        in: Timestamp.earliest.millisecondsSinceEpoch...Timestamp.latest.millisecondsSinceEpoch, using: &generator)),
                size: Int64.random(in: 0...Int64.max, using: &generator), type: IconCategory.allCases.randomElement(using: &generator)!,
                trashedAt: trashed ? Timestamp(millisecondsSinceEpoch: Int64.random(in: 0...4_102_444_800_000, using: &generator)) : nil,
                thumbnail: thumbnail ? true : nil)
            var bytes: [UInt8] = []
            RecordJSON.append(
                id: record.id.utf8, name: record.name.utf8, folder: record.folder.utf8,
                createdAt: record.createdAt.millisecondsSinceEpoch, size: record.size, type: record.type.rawValue.utf8,
                trashedAt: record.trashedAt?.millisecondsSinceEpoch, thumbnail: thumbnail, to: &bytes)
            let expected = try encoder.encode(record)
            #expect(bytes == Array(expected), "\(String(decoding: bytes, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
        }
    }
}
