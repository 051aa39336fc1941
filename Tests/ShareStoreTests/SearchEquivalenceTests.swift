import Foundation
import ShareKit
import ShareStore
import ShareTestSupport
import Testing

/// The index-backed search must find exactly what a plain case-insensitive literal substring match finds.
@Suite struct SearchEquivalenceTests {
    /// Letters in both cases, accents composed and not, CJK, emoji, and the characters SQL patterns treat specially.
    private static let pieces = [
        "a", "A", "b", "B", "r", "R", "e", "E", "é", "É", "e\u{301}", "ß", "ẞ", "Σ", "σ", "报", "告", "年", "😀", "%", "_", "\"",
        "'", "*", " ", ".", "-", "1", "0", "ı", "İ",
    ]

    private func text(_ generator: inout SplitMix, length: ClosedRange<Int>) -> String {
        (0..<Int.random(in: length, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }

    /// The reference: NFC + lowercase on both sides, then a substring test on Unicode scalars.
    private func matches(_ name: String, _ query: String) -> Bool {
        let haystack = Array(SearchKey.fold(name).unicodeScalars)
        let needle = Array(SearchKey.fold(query).unicodeScalars)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func indexedSearchEqualsALiteralSubstringMatch() async throws {
        var generator = SplitMix(seed: 7)
        let database = try ShareDatabase.temporary()
        var names: [String: String] = [:]
        while names.count < 300 {
            let name = text(&generator, length: 1...9) + ".txt"
            guard let record = try? await database.add(name) else { continue }
            names[record.id] = record.name
        }
        let utc = ZonedCalendar(identifier: "UTC")!
        // First the ordered read answers every search (the table is smaller than its budget); then newer records no
        // query can match go in front, so that searches run out of that budget and the trigram index answers.
        for pass in ["ordered read", "trigram index"] {
            if pass == "trigram index" {
                let fillers = try (0..<2100).map { index in
                    (line: index, share: try NewShare(id: nil, name: "фильтр\(String(repeating: "ф", count: index % 7))",
                                                     folder: nil, createdAt: "2030-01-01T00:00:00Z", size: 1))
                }
                _ = try await database.importShares(fillers)
            }
            for round in 0..<150 {
                let query: String
                if round % 2 == 0, let name = names.values.randomElement(using: &generator) {
                    // A piece of a real name, in another case, so that most queries find something.
                    let scalars = Array(name.unicodeScalars)
                    let start = Int.random(in: 0..<scalars.count, using: &generator)
                    let end = min(scalars.count, start + Int.random(in: 1...5, using: &generator))
                    var piece = ""
                    piece.unicodeScalars.append(contentsOf: scalars[start..<end])
                    query = Bool.random(using: &generator) ? piece.uppercased() : piece
                } else {
                    query = text(&generator, length: 1...4)
                }
                let page = try await database.listShares(ShareQuery(parameters: [("q", query), ("limit", "1000")], defaultZone: utc))
                let found = Set(try page.records.map(\.id))
                let expected = Set(names.filter { matches($0.value, query) }.keys)
                #expect(found == expected, "\(pass), q=\(query.debugDescription)")
            }
        }
    }
}
