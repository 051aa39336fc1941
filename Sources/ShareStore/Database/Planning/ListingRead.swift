/// One way to find the rows of a listing's page.
enum ListingRead {
    /// An index whose seeks yield rows in the listing's order: read until a page of rows passes every filter.
    case ordered(IndexRead)
    /// An index whose seeks hold every match but in another order: read whole, the matches sorted.
    case unordered(IndexRead)
    /// Rows the trigram index named as the only ones that can hold the text (`TrigramCounts.candidates`).
    case candidates([Int64])
    /// Every row whose name the trigram index finds holding the whole text.
    case fullText(String)
}

extension ListingRead {
    /// What the read is, for messages: its kind and index.
    var name: String {
        switch self {
        case .ordered(let read): return "ordered \(read.index)"
        case .unordered(let read): return "unordered \(read.index)"
        case .candidates: return "candidates"
        case .fullText: return "fullText"
        }
    }
}
