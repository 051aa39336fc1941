/// A condition on the name in a WHERE clause.
enum NameCondition {
    /// A literal substring test on the folded name, row by row: `%` and `_` are plain characters.
    case contains(String)
    /// The rows the trigram index names for the text, each tested for the whole text.
    case fullText(String)

    /// The condition for a read of every match, as statistics make: the trigram index for three characters or
    /// more, a test of each row for shorter text, which most names hold (the index would name most rows).
    init?(everyMatchOf text: String?) {
        guard let text, !text.isEmpty else { return nil }
        self = text.unicodeScalars.count >= 3 ? .fullText(text) : .contains(text)
    }
}
