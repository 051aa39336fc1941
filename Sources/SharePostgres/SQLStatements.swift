import Foundation
import ShareHistory

/// The statements of an SQL script (a migration), one by one: the extended query protocol PostgresNIO speaks runs
/// one statement at a time. Splits at each `;` outside quotes ('…', "…"), dollar-quoted bodies ($$…$$, $tag$…$tag$)
/// and comments.
enum SQLStatements {
    static func split(_ script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var rest = Substring(script)
        while let character = rest.first {
            if rest.hasPrefix("--") {
                let line = rest.prefix { $0 != "\n" }
                rest = rest.dropFirst(line.count)
                continue
            }
            if character == "'" || character == "\"" {
                let quoted = closing(rest, after: 1, delimiter: String(character))
                current += rest.prefix(quoted)
                rest = rest.dropFirst(quoted)
                continue
            }
            if character == "$", let tag = dollarTag(rest) {
                let quoted = closing(rest, after: tag.count, delimiter: tag)
                current += rest.prefix(quoted)
                rest = rest.dropFirst(quoted)
                continue
            }
            rest = rest.dropFirst()
            if character == ";" {
                append(current, to: &statements)
                current = ""
            } else {
                current.append(character)
            }
        }
        append(current, to: &statements)
        return statements
    }

    /// How many characters of `text` run up to and including the `delimiter` that closes the quote opened by its
    /// first `start` characters (all of it when none does).
    private static func closing(_ text: Substring, after start: Int, delimiter: String) -> Int {
        guard let end = text.dropFirst(start).range(of: delimiter) else { return text.count }
        return text.distance(from: text.startIndex, to: end.upperBound)
    }

    /// `$$` or `$tag$` when `text` starts with one.
    private static func dollarTag(_ text: Substring) -> String? {
        let name = text.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let tag = text.prefix(name.count + 2)
        return tag.count == name.count + 2 && tag.last == "$" ? String(tag) : nil
    }

    private static func append(_ statement: String, to statements: inout [String]) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { statements.append(trimmed) }
    }
}
