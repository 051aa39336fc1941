import Foundation

/// `--code` takes an optional value (`share add f.pdf --code` draws one, `--code Open42` chooses it), which the
/// argument parser cannot express: a bare `--code` is rewritten to carry `drawn` before parsing.
enum CodeArgument {
    /// The value a bare `--code` is given: a code of its own is letters and digits only.
    static let drawn = "-"

    static func normalize(_ arguments: [String]) -> [String] {
        var normalized: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                normalized += arguments[(index - 1)...]
                break
            }
            guard argument == "--code" else {
                normalized.append(argument)
                continue
            }
            // The next word is the code when it is letters and digits and no file: a file name (`report.pdf`) or an
            // option is not. A code of the wrong length goes to the server, which says what a code must be.
            if index < arguments.endIndex, isCodeLike(arguments[index]) {
                normalized += [argument, arguments[index]]
                index += 1
            } else {
                normalized.append("--code=\(drawn)")
            }
        }
        return normalized
    }

    private static func isCodeLike(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && !FileManager.default.fileExists(atPath: word)
    }
}
