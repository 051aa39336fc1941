import GRDB

/// A subquery selecting rows of `share` by their `seq`, as a column named `value`, with its arguments.
struct RowSubquery {
    let sql: String
    let arguments: [any DatabaseValueConvertible & Sendable]

    /// Its first `limit` rows.
    func first(_ limit: Int) -> (sql: String, arguments: StatementArguments) {
        (sql + " LIMIT ?", StatementArguments(arguments + [limit]))
    }
}
