import Foundation
import GRDB
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareStore

/// Every way a name search can be answered must find exactly what a plain case-insensitive literal substring
/// match finds.
@Suite struct SearchEquivalenceTests {
    /// Letters in both cases, accents composed and not, CJK, emoji, and the characters SQL patterns treat specially.
    private static let pieces = [
        "a", "A", "b", "B", "r", "R", "e", "E", "é", "É", "e\u{301}", "ß", "ẞ", "Σ", "σ", "报", "告", "年", "😀", "%", "_", "\"",
        "'", "*", " ", ".", "-", "1", "0", "ı", "İ",
    ]

    /// Every path a search can take: rows holding the rarest trigrams; an ordered read (no trigram counts as rare);
    /// too many candidates, then an ordered read cut short, then the trigram index for the whole text.
    private static let strategies: [(name: String, candidateLimit: Int, scanBudget: Int)] = [
        ("rarest trigrams", TrigramCounts.cap, 20_000), ("ordered read", 0, 20_000),
        ("trigram index", 0, 5), ("few candidates allowed, then the trigram index", 3, 5),
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

    @Test func everySearchStrategyEqualsALiteralSubstringMatch() async throws {
        var generator = SplitMix(seed: 7)
        let path = try temporaryDatabasePath()
        let database = try ShareDatabase(path: path)
        var names: [String: String] = [:]
        while names.count < 300 {
            let name = text(&generator, length: 1...9) + ".txt"
            guard let record = try? await database.add(name) else { continue }
            names[record.id] = record.name
        }
        let queue = try DatabaseQueue(path: path)
        let utc = ZonedCalendar(identifier: "UTC")!
        for round in 0..<200 {
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
            let expected = Set(names.filter { matches($0.value, query) }.keys)
            var ordered: [String]?
            for strategy in Self.strategies {
                // Pages of 7 through the whole result: each page's path is chosen anew, from its cursor on.
                var parsed = try ShareQuery(parameters: [("q", query), ("limit", "7")], defaultZone: utc)
                var found: [String] = []
                repeat {
                    let listing = ShareListing(query: parsed, candidateLimit: strategy.candidateLimit, scanBudget: strategy.scanBudget)
                    let page = try await queue.read { db in try listing.fetch(db) }
                    found += try page.records.map(\.id)
                    parsed.cursor = page.next
                } while parsed.cursor != nil && found.count <= names.count
                #expect(Set(found) == expected && found.count == expected.count, "\(strategy.name), q=\(query.debugDescription)")
                // Every path lists the matches in the same order.
                #expect(found == (ordered ?? found), "\(strategy.name), q=\(query.debugDescription)")
                ordered = ordered ?? found
            }
        }
    }
}
