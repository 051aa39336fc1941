import Foundation

/// The form names are compared in, for search and for sorting by name: NFC, then full Unicode case folding
/// (`ß` and `SS` alike, final `ς` as `σ`), then NFC again.
///
/// Both the stored key and the query go through it, so `Résumé` (composed or not) matches `résumé` and `RÉSUMÉ`,
/// and `STRASSE` matches `straße`.
public enum SearchKey {
    /// Which folding `fold` is; stored keys made by an earlier one are made again (`StoredSearchKeys`).
    /// 0 was NFC and lowercase; 1 is full case folding.
    public static let version = 1

    public static func fold(_ text: String) -> String {
        // ASCII folds to its lowercase: the fast path imports take for most names.
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text.lowercased() }
        return nfc(nfc(text).folding(options: [.caseInsensitive], locale: nil))
    }

    /// NFC normalisation; ASCII text is already NFC, and skipping Foundation for it makes imports much faster.
    public static func nfc(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }
}
