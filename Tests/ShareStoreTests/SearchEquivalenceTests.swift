import Foundation
import ShareKit
import ShareStore
import Testing

/// The index-backed search must find exactly what a plain case-insensitive literal substring match finds.
@Suite struct SearchEquivalenceTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

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
        var generator = SplitMix(state: 7)
        let database = try ShareDatabase.temporary()
        var names: [String: String] = [:]
        while names.count < 300 {
            let name = text(&generator, length: 1...9) + ".txt"
            guard let record = try? await database.add(name) else { continue }
            names[record.id] = record.name
        }
        let utc = ZonedCalendar(identifier: "UTC")!
        for round in 0..<250 {
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
            #expect(found == expected, "q=\(query.debugDescription)")
        }
    }
}
