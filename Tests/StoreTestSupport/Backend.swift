import GRDB
import ShareHistory
import ShareObjectStore
import ShareSQLite

/// The stores the conformance suite runs against: every test given `Backend.allCases` runs once on each, and
/// asks both the same questions; a test of the bytes behind shares takes `Backend.everyKindOfBytes`, which adds
/// both with their files in a bucket of the test S3 store.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql
    case sqliteWithBucket
    case postgresqlWithBucket

    public static var allCases: [Backend] { [.sqlite, .postgresql] }
    public static let everyKindOfBytes: [Backend] = [.sqlite, .postgresql, .sqliteWithBucket, .postgresqlWithBucket]

    /// How a test's argument reads in its results: `backend → postgresql`.
    public var description: String { rawValue }

    /// Runs `body` with a new, empty, migrated store of this backend (SQLite: a file in a temporary folder, as the
    /// daemon opens it; PostgreSQL: a new database of the test cluster, with a prefix of its own in the test bucket),
    /// and closes it after.
    public func withStore<T: Sendable>(_ body: @Sendable (any ShareStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite: return try await body(try SQLiteStore(writer: DatabaseQueue()))
        case .postgresql: return try await TestPostgres.withStore(body)
        case .sqliteWithBucket:
            var store = try SQLiteStore(writer: DatabaseQueue())
            store.bucket = S3Bucket(client: try TestS3.client())
            return try await body(store)
        case .postgresqlWithBucket:
            let bucket = S3Bucket(client: try TestS3.client())
            return try await TestPostgres.withStore { store in
                var store = store
                store.bucket = bucket
                return try await body(store)
            }
        }
    }
}
