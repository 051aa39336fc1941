/// What a search's text (`q`) asks of a name: every one of its pieces, in any order, each a literal substring of the
/// folded name (`SearchKey`). Words are split at white space and `_ - . ,`, as names are written
/// (`final_report.pdf`); a phrase in double quotes is one piece, separators and all.
public enum SearchWords {
    /// Characters that end a word outside quotes, besides white space.
    static let separators: Set<Character> = ["_", "-", ".", ","]
    /// The most pieces a search takes: more is a mistake (or an attempt to make the server work), never a search.
    public static let maximumCount = 32

    /// Why `text` cannot be a search, if it cannot: more than `maximumCount` pieces, or one longer than a name.
    public static func problem(with text: String) -> String? {
        let pieces = split(text)
        if pieces.count > maximumCount { return "has \(pieces.count) words; a search takes at most \(maximumCount)" }
        if pieces.contains(where: { $0.utf8.count > FileName.maxBytes }) {
            return "has a word longer than a name can be (\(FileName.maxBytes) bytes of UTF-8)"
        }
        return nil
    }

    /// The folded pieces of `text`, none held by another (`re report` is `report`).
    public static func pieces(of text: String) -> [String] {
        essential(split(text).map(SearchKey.fold))
    }

    /// The pieces of `text` as typed. Text made only of separators is one literal piece, so that `_` still finds the
    /// names holding one; blank text has none.
    private static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        let finish = {
            if !piece.isEmpty { pieces.append(piece) }
            piece = ""
        }
        for character in text {
            if character == "\"" {
                finish()
                quoted.toggle()
            } else if quoted || !(character.isWhitespace || separators.contains(character)) {
                piece.append(character)
            } else {
                finish()
            }
        }
        finish()
        guard pieces.isEmpty else { return pieces }
        let literal = text.filter { $0 != "\"" }.trimmingWhitespace()
        return literal.isEmpty ? [] : [literal]
    }

    /// `pieces` without repeats and without those another piece holds: a name holding the longer holds them too.
    private static func essential(_ pieces: [String]) -> [String] {
        var kept: [String] = []
        for (index, piece) in pieces.enumerated() {
            let heldElsewhere = pieces.enumerated().contains { other in
                other.offset != index && other.element.contains(piece) && (other.element != piece || other.offset < index)
            }
            if !heldElsewhere { kept.append(piece) }
        }
        return kept
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
