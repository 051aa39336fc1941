import ShareKit
import ShareStore

/// Strict query strings: a malformed escape is a 400 that names the parameter, never guessed at.
enum QueryString {
    /// The decoded `name=value` pairs of `query`, in order; `+` is a space.
    static func parse(_ query: String?) throws(ShareError) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [(name: String, value: String)] = []
        for piece in query.split(separator: "&") {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = FormEncoding.decode(parts[0]) else {
                throw .invalidParameter(String(parts[0]), "has a name that is not valid percent-encoded UTF-8")
            }
            guard let value = parts.count > 1 ? FormEncoding.decode(parts[1]) : "" else {
                throw .invalidParameter(name, "is not valid percent-encoded UTF-8")
            }
            pairs.append((name, value))
        }
        return pairs
    }
}
