import GRDB

/// A condition on the name in a WHERE clause.
enum NameCondition {
    /// A literal substring test on the folded name, row by row: `%` and `_` are plain characters.
    case contains(String)
    /// The rows the trigram index names for the text, each tested for the whole text.
    case fullText(String)

    /// The condition for a read of every match of `query`'s text, as statistics make: the trigram index, except for
    /// text of one or two characters that many of the history's names hold (`counts` reaches its cap), where each
    /// row is tested instead, as the index would name most of them.
    init?(everyMatchOf query: ShareQuery, counts: TrigramCounts, _ db: Database) throws {
        guard let text = query.nameContains, !text.isEmpty else { return nil }
        let short = text.unicodeScalars.count < 3
        self = try short && !counts.isRare(text, owner: query.owner, db) ? .contains(text) : .fullText(text)
    }
}
