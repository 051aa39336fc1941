import ShareHistory

/// One way to find the rows of a listing's page.
enum ListingRead {
    /// An index whose seeks yield rows in the listing's order: read until a page of rows passes every filter.
    case ordered(IndexRead)
    /// An index whose seeks hold every match but in another order: read whole, the matches sorted.
    case unordered(IndexRead)
    /// Rows the trigram index named as the only ones that can hold the text (`TrigramCounts.candidates`).
    case candidates([Int64])
    /// Every row whose name the trigram index finds holding every word of the text.
    case fullText([String])
}

extension ListingRead {
    /// What the read is, for messages: its kind and index.
    var name: String {
        switch self {
        case .ordered(let read): return "ordered \(read.index)"
        case .unordered(let read): return "unordered \(read.index)\(read.amongNamed ? " among named" : "")"
        case .candidates: return "candidates"
        case .fullText: return "fullText"
        }
    }
}

extension ListingRead {
    /// About the work (`WorkBudget`) reading one of the read's rows takes: a step or fifteen on an index alone, more
    /// than a hundred where each row is looked up in the table (three pages or so). Measured at a million records
    /// by `bench/planner_costs.py`.
    var rowWork: Int {
        switch self {
        case .ordered(let read), .unordered(let read):
            if read.amongNamed { return IndexRead.namedRowWork }
            return read.readsTable ? IndexRead.tableRowWork : IndexRead.indexRowWork
        case .candidates, .fullText: return IndexRead.tableRowWork
        }
    }
}
