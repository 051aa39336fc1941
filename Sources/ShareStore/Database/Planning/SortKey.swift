import ShareKit

/// Where a row stands in a listing's order, ascending: its sort value, then its id as the indexes compare ids
/// (ASCII letters folded, SQLite's NOCASE). Lets rows read from several places be merged in Swift.
struct SortKey: Comparable {
    private(set) var number: Int64 = 0
    private(set) var text: [UInt8] = []
    private(set) var id: [UInt8] = []

    init() {}

    /// The key of `row`, whose columns `column` and `column + 1` hold the sort value and the id.
    init(_ row: StatementColumns, sort: ListingSort, column: Int32) {
        load(row, sort: sort, column: column)
    }

    /// Becomes the key of `row`, reusing its storage: a scan keeps the key of every row it reads.
    mutating func load(_ row: StatementColumns, sort: ListingSort, column: Int32) {
        text.removeAll(keepingCapacity: true)
        if sort == .name {
            text.append(contentsOf: row.text(column))
        } else {
            number = row.integer(column)
        }
        id.removeAll(keepingCapacity: true)
        for byte in row.text(column + 1) {
            id.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
    }

    static func < (left: SortKey, right: SortKey) -> Bool {
        if left.number != right.number { return left.number < right.number }
        if left.text != right.text { return left.text.lexicographicallyPrecedes(right.text) }
        return left.id.lexicographicallyPrecedes(right.id)
    }
}
