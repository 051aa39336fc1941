/// The form names are compared in, for search and for sorting by name: NFC, then Unicode lowercase.
///
/// Both the stored key and the query go through it, so `Résumé` (composed or not) matches `résumé` and `RÉSUMÉ`.
public enum SearchKey {
    public static func fold(_ text: String) -> String {
        nfc(nfc(text).lowercased())
    }

    /// NFC normalisation; ASCII text is already NFC, and skipping Foundation for it makes imports much faster.
    public static func nfc(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }
}
