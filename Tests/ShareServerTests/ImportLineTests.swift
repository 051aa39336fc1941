import Foundation
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareServer

/// An import reads plain lines without Foundation's decoder: what a user would notice if the two readers parted is
/// a record imported differently, or a line refused with another reason, than the same body sent to `POST /share`.
@Suite struct ImportLineTests {
    @Test func anExportedLineIsReadWithoutTheDecoder() throws {
        let line =
            #"{"createdAt":"2021-01-17T20:40:00Z","downloads":3,"folder":"/Reports","id":"7K2M9QDX","maxDownloads":null,"name":"Résumé 2021.pdf","size":1200,"state":"revoked","type":"pdf"}"#
        let members = try #require(JSONObjectMembers(Array(line.utf8)))
        let fields = try #require(ImportLine.plainFields(members))
        #expect(fields.id == "7K2M9QDX" && fields.name == "Résumé 2021.pdf" && fields.folder == "/Reports")
        #expect(fields.createdAt == "2021-01-17T20:40:00Z" && fields.size?.value == 1200 && fields.downloads?.value == 3)
        #expect(fields.maxDownloads == nil && fields.state == .revoked)
    }

    @Test func everyLineReadsAsTheDecoderReadsIt() {
        var generator = SplitMix(seed: 2026)
        var plain = 0
        for _ in 0..<20_000 {
            let line = Self.line(using: &generator)
            if let members = JSONObjectMembers(line), ImportLine.plainFields(members) != nil { plain += 1 }
            let decoded = Self.summary { () throws(ShareError) in try JSONBody.decode(NewShareBody.self, from: Data(line)) }
            let read = Self.summary { () throws(ShareError) in try ImportLine.fields(line) }
            #expect(read == decoded, "\(String(decoding: line, as: UTF8.self))")
        }
        // Both ways are compared only if many lines take the plain one.
        #expect(plain > 4_000)
    }

    private static func summary(_ read: () throws(ShareError) -> NewShareBody) -> String {
        do {
            let body = try read()
            return [
                body.id, body.name, body.folder, body.createdAt, body.size.map { "\($0.value)" }, body.trashedAt,
                body.thumbnailImage, body.source, body.expiresAt, body.maxDownloads.map { "\($0.value)" }, body.code?.code,
                body.downloads.map { "\($0.value)" }, body.state?.rawValue,
            ]
            .map { $0.map { "[\($0)]" } ?? "nil" }.joined(separator: " ")
        } catch {
            return "refused: \(error)"
        }
    }

    private static let keys = [
        "id", "name", "folder", "createdAt", "size", "trashedAt", "thumbnailImage", "source", "expiresAt", "maxDownloads",
        "code", "downloads", "state", "type", "thumbnail", "na\\u006de", "Name", "",
    ]
    private static let values = [
        #""report.pdf""#, #""Résumé""#, #""""#, #""a\"b""#, #""\u00e9""#, #""\ud800""#, #""active""#, #""revoked""#,
        #""ACTIVE""#, "0", "-0", "7", "-12", "007", "1.5", "1e3", "-", "123456789012345678", "1234567890123456789",
        "99999999999999999999", "true", "false", "null", "tru", "nul", "{}", #"{"a":[1,2]}"#, "[]", "[1,", "\"open",
        "\u{7F}", "NaN",
    ]

    /// An object of a few members drawn from the fields, unknown keys and values plain or not, spaced at random; now
    /// and then with a hostile byte in it.
    private static func line(using generator: inout SplitMix) -> [UInt8] {
        let spaces = ["", " ", "\n", "\t "]
        var text = "{"
        for index in 0..<Int.random(in: 0...5, using: &generator) {
            let space = spaces.randomElement(using: &generator)!
            if index > 0 { text += "," }
            let key = keys.randomElement(using: &generator)!
            var value = values.randomElement(using: &generator)!
            // `"code": true` draws a new code each time it is read: the two readers could not agree.
            if key == "code" && value == "true" { value = "false" }
            text += "\(space)\"\(key)\"\(space):\(space)\(value)\(space)"
        }
        var bytes = Array((text + "}").utf8)
        if Int.random(in: 0..<20, using: &generator) == 0 {
            bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
        }
        return bytes
    }
}
