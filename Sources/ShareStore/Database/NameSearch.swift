import GRDB

/// A condition on the name in a WHERE clause.
enum NameCondition {
    /// A literal substring test on the folded name, row by row: `%` and `_` are plain characters.
    case contains(String)
    /// The trigram index asked for the whole text.
    case fullText(String)
}

/// Where the rows of a listing's page come from, once it has a text to look for: the one place the search
/// strategy is decided, from what the text is and what the trigram counts say.
enum NameSearch {
    /// The listing reads its rows itself, testing each with this condition (or none).
    case filter(NameCondition?)
    /// Exactly these rows (`seq`) can hold the text; each is still tested against it.
    case rows([Int64])

    /// The condition for a read of every match, as statistics make: the trigram index for three characters or
    /// more, a test of each row for shorter text, which has no trigram.
    static func condition(for text: String?) -> NameCondition? {
        guard let text, !text.isEmpty else { return nil }
        return text.unicodeScalars.count >= 3 ? .fullText(text) : .contains(text)
    }

    /// For one page, the fewest rows that can match:
    /// - a text with a rare trigram: the names holding its rarest trigrams, from the trigram index;
    /// - a text made of common trigrams is usually common itself: rows are read in order, testing each name in
    ///   the index alone, until a page is full;
    /// - failing both (common trigrams, rare text), the trigram index is asked for the whole text.
    static func choose(for listing: ShareListing, _ db: Database) throws -> NameSearch {
        guard case .fullText(let text) = condition(for: listing.query.nameContains) else {
            return .filter(condition(for: listing.query.nameContains))
        }
        if let candidates = try listing.trigramCounts.candidates(for: text, limit: listing.candidateLimit, db) {
            return .rows(candidates)
        }
        if let firstMatches = try listing.orderedMatches(of: text, db) {
            return .rows(firstMatches)
        }
        return .filter(.fullText(text))
    }
}
