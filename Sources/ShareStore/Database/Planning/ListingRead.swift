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

extension ListingRead {
    /// About how many times longer a step of this read takes than a step of a read of an index alone: each
    /// round's budget is divided by it, so that reads race in time rather than in steps. Measured at a million
    /// records: 40 to 45 ns a step reading an index alone, 100 to 140 reading the rows the trigram index names
    /// from the table (in the table's order), 425 testing each row of an index against the table (in the
    /// index's order).
    var stepCost: Int {
        switch self {
        case .ordered(let read), .unordered(let read): return read.readsTable ? 8 : 1
        case .candidates: return 1
        case .fullText: return 3
        }
    }
}
