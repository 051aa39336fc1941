/// What a search's text (`q`) asks of a name: every one of its pieces, in any order, each a literal substring of the
/// folded name (`SearchKey`). Words are split at white space and `_ - . ,`, as names are written
/// (`final_report.pdf`); a phrase in double quotes is one piece, separators and all.
public enum SearchWords {
    /// Characters that end a word outside quotes, besides white space.
    public static let separators: Set<Character> = ["_", "-", ".", ","]

    /// The folded pieces of `text`, none held by another (`re report` is `report`). Text made only of separators is
    /// one literal piece, so that `_` still finds the names holding one; blank text has none.
    public static func pieces(of text: String) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        let finish = {
            if !piece.isEmpty { pieces.append(SearchKey.fold(piece)) }
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
        if pieces.isEmpty {
            let literal = text.filter { $0 != "\"" }.trimmingWhitespace()
            return literal.isEmpty ? [] : [SearchKey.fold(literal)]
        }
        return essential(pieces)
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
