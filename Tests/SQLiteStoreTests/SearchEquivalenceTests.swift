import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// Every way a name search can be answered, statistics included, must find exactly what plain case-insensitive
/// literal substring matches of each of its words find.
@Suite struct SearchEquivalenceTests {
    /// Letters in both cases, accents composed and not, CJK, emoji, and the characters SQL patterns treat specially.
    private static let pieces = [
        "a", "A", "b", "B", "r", "R", "e", "E", "é", "É", "e\u{301}", "ß", "ẞ", "Σ", "σ", "报", "告", "年", "😀", "%", "_", "\"",
        "'", "*", " ", ".", "-", "1", "0", "ı", "İ",
    ]

    /// Every way a page of a search can be found: the race between reads (first with room for a page, then from
    /// one step, where every read is cut short until the budget has grown, then with no candidates and the ordered
    /// reads on a second reader from the first round), and each read on its own (in a folder by name, the folder's
    /// index read among the names the trigram index holds).
    private static let strategies = [
        "race", "race from one step", "race beside a second reader", "ordered", "candidates", "fullText",
        "unordered share_live_by_folder among named",
    ]

    /// Every search alone, and within a folder sorted by name.
    private static let scopes: [[(String, String)]] = [[], [("folder", "/a"), ("sort", "name")]]

    /// The next page of `listing` by `strategy`; nil when that strategy has no read for the query.
    private func page(_ listing: SQLiteListing, _ strategy: String, _ db: Database) throws -> SharePage? {
        switch strategy {
        case "race": return try listing.fetch(db)
        case "race from one step": return try listing.fetch(db, firstBudget: 1)
        case "race beside a second reader": return try listing.fetch(db)
        default:
            let planner = ListingPlanner(listing)
            guard let read = try planner.reads(db).first(where: { $0.name.hasPrefix(strategy) }) else { return nil }
            return try listing.page(planner.statement(of: read, db), db)
        }
    }

    private func text(_ generator: inout SplitMix, length: ClosedRange<Int>) -> String {
        (0..<Int.random(in: length, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }

    /// The reference: each word folded, found in the folded name by a substring test on Unicode scalars.
    private func matches(_ name: String, _ query: String) -> Bool {
        let haystack = Array(SearchKey.fold(name).unicodeScalars)
        return SearchWords.pieces(of: query).allSatisfy { word in
            let needle = Array(word.unicodeScalars)
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    @Test func everySearchStrategyEqualsALiteralSubstringMatch() async throws {
        var generator = SplitMix(seed: 7)
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        var names: [String: String] = [:]
        var inFolder: Set<String> = []
        while names.count < 300 {
            // With an extension and without, so that a text also ends names.
            let name = text(&generator, length: 1...9) + (Bool.random(using: &generator) ? ".txt" : "")
            let folder = names.count % 2 == 0 ? "/a" : "/"
            guard let record = try? await database.sharedHistory.add(name, folder: folder) else { continue }
            names[record.id] = record.name
            if folder == "/a" { inFolder.insert(record.id) }
        }
        let queue = try DatabaseQueue(path: path)
        let second = SecondReader(pool: try #require(database.writer as? DatabasePool), isFree: { true })
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
            let found = Set(names.filter { matches($0.value, query) }.keys)
            // Statistics read every match at once, through the index too, even for one or two characters.
            let counted = try await database.sharedHistory.stats(ShareQuery(parameters: [("q", query)], defaultZone: utc)).count
            #expect(counted == found.count, "statistics, q=\(query.debugDescription)")
            for scope in Self.scopes {
                let matches = scope.isEmpty ? found : found.intersection(inFolder)
                try await expectEveryStrategyFinds(matches, query, scope, names.count, queue, second)
            }
        }
    }

    /// Every strategy finds `expected` for `query` within `scope`, all in the same order.
    private func expectEveryStrategyFinds(
        _ expected: Set<String>, _ query: String, _ scope: [(String, String)], _ total: Int, _ queue: DatabaseQueue,
        _ second: SecondReader
    ) async throws {
        let utc = ZonedCalendar(identifier: "UTC")!
        var ordered: [String]?
        for strategy in Self.strategies {
            // Pages of 7 through the whole result: each page's path is chosen anew, from its cursor on.
            var parsed = try ShareQuery(parameters: [("q", query), ("limit", "7")] + scope, defaultZone: utc)
            var found: [String] = []
            var complete = true
            repeat {
                let beside = strategy == "race beside a second reader"
                let listing = SQLiteListing(query: parsed, candidateLimit: beside ? 0 : TrigramCounts.cap, secondReader: beside ? second : nil)
                guard let page = try await queue.read({ db in try self.page(listing, strategy, db) }) else {
                    complete = false
                    break
                }
                found += try page.records.map(\.id)
                parsed.cursor = page.next
            } while parsed.cursor != nil && found.count <= total
            guard complete else { continue }
            #expect(Set(found) == expected && found.count == expected.count, "\(strategy), q=\(query.debugDescription), \(scope)")
            // Every path lists the matches in the same order.
            #expect(found == (ordered ?? found), "\(strategy), q=\(query.debugDescription), \(scope)")
            ordered = ordered ?? found
        }
    }
}
