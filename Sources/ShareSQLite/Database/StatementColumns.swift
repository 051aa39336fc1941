import GRDB
import GRDBSQLite
import ShareHistory

/// The current row of a stepping statement, read straight from SQLite: text as the UTF-8 bytes SQLite holds,
/// without making a `String` per column. Valid only until the statement steps again.
struct StatementColumns {
    private let statement: SQLiteStatement

    /// Runs the SELECT `statement` with `arguments`, handing each row to `body` until it returns false or the
    /// rows run out. Steps SQLite directly: listings read thousands of rows per request, and a cursor's
    /// bookkeeping per row is most of what reading an indexed row costs.
    static func forEachRow(
        of statement: Statement, arguments: StatementArguments, _ body: (StatementColumns) throws -> Bool
    ) throws {
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            switch sqlite3_step(raw) {
            case SQLITE_ROW:
                guard try body(StatementColumns(statement: raw)) else { return }
            case SQLITE_DONE:
                return
            case let code:
                let message = sqlite3_errmsg(sqlite3_db_handle(raw)).map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
        }
    }

    /// Runs the SELECT `literal`, prepared once and kept, as `forEachRow(of:arguments:_:)` does.
    static func forEachRow(of literal: SQL, _ db: Database, _ body: (StatementColumns) throws -> Bool) throws {
        let (sql, arguments) = try literal.build(db)
        try forEachRow(of: try db.cachedStatement(sql: sql), arguments: arguments, body)
    }

    private init(statement: SQLiteStatement) {
        self.statement = statement
    }

    func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    func integer(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// The column's bytes (empty for NULL).
    func blob(_ index: Int32) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, index), count: Int(sqlite3_column_bytes(statement, index)))
    }

    /// The column's text as UTF-8 bytes (empty for NULL).
    func text(_ index: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let start = sqlite3_column_text(statement, index) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index)))
    }
}
