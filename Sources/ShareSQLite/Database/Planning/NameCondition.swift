import GRDB
import ShareHistory

/// A condition on the name in a WHERE clause: it holds every one of the text's words (`SearchWords`).
enum NameCondition {
    /// A literal substring test of each word on the folded name, row by row: `%` and `_` are plain characters.
    case contains([String])
    /// The rows the trigram index names for the words, each tested for every word.
    case fullText([String])

    /// The condition for a read of every match of `query`'s text, as statistics make: the trigram index, except for
    /// words of one or two characters that many of the history's names hold (`counts` reaches its cap), where each
    /// row is tested instead, as the index would name most of them.
    init?(everyMatchOf query: ShareQuery, owner: Int64, counts: TrigramCounts, _ db: Database) throws {
        let words = query.nameWords
        guard !words.isEmpty else { return nil }
        let keys = NameIndex.keys(of: words)
        let common = try keys.count == 1 && !keys.contains(where: NameIndex.isTrigram) && !counts.isRare(keys[0], owner: owner, db)
        self = common ? .contains(words) : .fullText(words)
    }
}
