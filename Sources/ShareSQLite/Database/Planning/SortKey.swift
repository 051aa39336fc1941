import ShareHistory
import ShareKit

/// Where a row stands in a listing's order, ascending: its sort value, then its id as the indexes compare ids
/// (ASCII letters folded, SQLite's NOCASE). Lets rows read from several places be merged in Swift.
struct SortKey: Comparable, Sendable {
    let number: Int64
    let text: [UInt8]
    let id: [UInt8]

    /// The key of `row`, whose columns `column` and `column + 1` hold the sort value and the id.
    init(_ row: StatementColumns, sort: ListingSort, column: Int32) {
        number = sort == .name ? 0 : row.integer(column)
        text = sort == .name ? Array(row.text(column)) : []
        id = row.text(column + 1).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    static func < (left: SortKey, right: SortKey) -> Bool {
        if left.number != right.number { return left.number < right.number }
        if left.text != right.text { return left.text.lexicographicallyPrecedes(right.text) }
        return left.id.lexicographicallyPrecedes(right.id)
    }
}
