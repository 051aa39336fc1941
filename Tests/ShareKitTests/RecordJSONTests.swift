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

    /// A link's columns, each present or not; the token from base64url's alphabet.
    private func randomLink(_ generator: inout SplitMix) -> LinkColumns<String.UTF8View> {
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        let token = Bool.random(using: &generator) ? "8Ocb_kXc7cuxpNG3Lk8FcQ" : nil
        return LinkColumns(
            token: token?.utf8, source: maybe("https://drive.example.com/s/\"q\"".utf8),
            expiresAt: maybe(1_700_000_000_000 + Int64.random(in: -5...5, using: &generator)),
            maxDownloads: maybe(Int64.random(in: 1...3, using: &generator)), downloads: Int64.random(in: 0...4, using: &generator),
            revokedAt: maybe(1_600_000_000_000), code: maybe("Open42".utf8), stored: token != nil && Bool.random(using: &generator),
            sender: maybe("Zoé \"Z\"".utf8), message: maybe("Here it is:\n\tthe report 报告".utf8))
    }

    @Test func writesExactlyWhatTheWireEncoderWrites() throws {
        var generator = SplitMix(seed: 20_261_122)
        let encoder = WireJSON.encoder()
        for _ in 0..<2000 {
            let trashed = Bool.random(using: &generator)
            let thumbnail = Bool.random(using: &generator)
            var record = ShareRecord(
                id: randomText(&generator), name: randomText(&generator), folder: "/" + randomText(&generator),
                createdAt: Timestamp(
                    millisecondsSinceEpoch: Int64.random(
                        in: Timestamp.earliest.millisecondsSinceEpoch...Timestamp.latest.millisecondsSinceEpoch, using: &generator)),
                size: Int64.random(in: 0...Int64.max, using: &generator), type: IconCategory.allCases.randomElement(using: &generator)!,
                trashedAt: trashed ? Timestamp(millisecondsSinceEpoch: Int64.random(in: 0...4_102_444_800_000, using: &generator)) : nil,
                thumbnail: thumbnail ? true : nil)
            let link = Bool.random(using: &generator) ? randomLink(&generator) : nil
            let form = RecordForm(
                links: Bool.random(using: &generator)
                    ? ShareLinks(pathPrefix: "/files") : ShareLinks(pattern: "https://x.example/{id}", pathPrefix: ""),
                now: Timestamp(millisecondsSinceEpoch: 1_700_000_000_000), showsCodes: Bool.random(using: &generator))
            if let link {
                record.linkToken = link.token.map { String($0) }
                record.source = link.source.map { String($0) }
                record.expiresAt = link.expiresAt.map(Timestamp.init(millisecondsSinceEpoch:))
                record.maxDownloads = link.maxDownloads
                record.downloads = link.downloads
                record.revokedAt = link.revokedAt.map(Timestamp.init(millisecondsSinceEpoch:))
                record.code = link.code.map { String($0) }
                record.stored = link.stored ? true : nil
                record.sender = link.sender.map { String($0) }
                record.message = link.message.map { String($0) }
            }
            record.show(form)
            var bytes: [UInt8] = []
            RecordJSON.append(
                id: record.id.utf8, name: record.name.utf8, folder: record.folder.utf8,
                createdAt: record.createdAt.millisecondsSinceEpoch, size: record.size, type: record.type.rawValue.utf8,
                trashedAt: record.trashedAt?.millisecondsSinceEpoch, thumbnail: thumbnail, link: link, form: form, to: &bytes)
            let expected = try encoder.encode(record)
            #expect(bytes == Array(expected), "\(String(decoding: bytes, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
        }
    }
}
