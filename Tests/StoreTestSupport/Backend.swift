import GRDB
import ShareStore
import Testing

/// The stores the conformance suite runs against: every test given `Backend.allCases` runs once on each, and
/// asks both the same questions.
public enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    public var testDescription: String { rawValue }

    /// Runs `body` with a new, empty, migrated store of this backend (SQLite: a file in a temporary folder, as the
    /// daemon opens it; PostgreSQL: a new database of the test cluster), and closes it after.
    public func withStore<T: Sendable>(_ body: @Sendable (any ShareRepository) async throws -> T) async throws -> T {
        switch self {
        case .sqlite: return try await body(try ShareDatabase(writer: DatabaseQueue()))
        case .postgresql: return try await TestPostgres.withStore(body)
        }
    }
}
