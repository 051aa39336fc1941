/// The form names are compared in, for search and for sorting by name: NFC, then Unicode lowercase.
///
/// Both the stored key and the query go through it, so `Résumé` (composed or not) matches `résumé` and `RÉSUMÉ`.
public enum SearchKey {
    public static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }
}
