import GRDB
import GRDBSQLite

/// The current row of a stepping statement, read straight from SQLite: text as the UTF-8 bytes SQLite holds,
/// without making a `String` per column. Valid only until the statement steps again.
struct StatementColumns {
    private let statement: SQLiteStatement

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    func integer(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// The column's text as UTF-8 bytes (empty for NULL).
    func text(_ index: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let start = sqlite3_column_text(statement, index) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index)))
    }
}
