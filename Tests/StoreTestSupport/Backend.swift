import GRDB
import ShareHistory
import ShareSQLite

/// The stores the conformance suite runs against: every test given `Backend.allCases` runs once on each, and
/// asks both the same questions.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql

    /// How a test's argument reads in its results: `backend → postgresql`.
    public var description: String { rawValue }

    /// Runs `body` with a new, empty, migrated store of this backend (SQLite: a file in a temporary folder, as the
    /// daemon opens it; PostgreSQL: a new database of the test cluster), and closes it after.
    public func withStore<T: Sendable>(_ body: @Sendable (any ShareStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite: return try await body(try SQLiteStore(writer: DatabaseQueue()))
        case .postgresql: return try await TestPostgres.withStore(body)
        }
    }
}
