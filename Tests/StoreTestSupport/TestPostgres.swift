import Foundation
import Logging
import PostgresNIO
import SharePostgres
import ShareStore
import Synchronization

/// The PostgreSQL cluster the tests use: the one `scripts/postgres-cluster start` made, named by
/// `SHARE_TEST_POSTGRES` (the folder of its unix socket), as `scripts/test` sets it. Each store is a new database
/// of its own, dropped after the test.
public enum TestPostgres {
    public struct NoCluster: Error, CustomStringConvertible {
        public var description: String {
            "no PostgreSQL cluster for the tests: run scripts/test, or set SHARE_TEST_POSTGRES to the folder scripts/postgres-cluster start prints"
        }
    }

    /// The folder of the cluster's unix socket.
    public static func socketFolder() throws -> String {
        guard let folder = ProcessInfo.processInfo.environment["SHARE_TEST_POSTGRES"], !folder.isEmpty else { throw NoCluster() }
        return folder
    }

    /// `postgresql:///NAME?host=FOLDER`: the database as `[database] url` names it.
    public static func url(of database: String) throws -> String {
        "postgresql:///\(database)?host=\(try socketFolder())"
    }

    private static let made = Atomic<Int>(0)

    /// A new database's name, unique in the cluster across test processes.
    public static func newDatabaseName() -> String {
        "share_test_\(getpid())_\(made.add(1, ordering: .relaxed).newValue)"
    }

    static func configuration(database: String) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            unixSocketPath: try socketFolder() + "/.s.PGSQL.5432", username: "postgres", password: nil, database: database)
        configuration.options.maximumConnections = 4
        return configuration
    }

    /// Runs `body` with a client of `database` running.
    public static func withClient<T: Sendable>(database: String, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        try await PostgresStore.withRunningClient(try configuration(database: database), logger: Logger(label: "test-postgres"), body)
    }

    /// Creates a database, runs `body` with its name, and drops it.
    public static func withDatabase<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let name = newDatabaseName()
        try await administer("CREATE DATABASE \(name)")
        do {
            let value = try await body(name)
            try await administer("DROP DATABASE \(name) WITH (FORCE)")
            return value
        } catch {
            try? await administer("DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// Runs `body` with a new, empty, migrated store.
    public static func withStore<T: Sendable>(_ body: @Sendable (PostgresStore) async throws -> T) async throws -> T {
        try await withDatabase { name in
            try await withClient(database: name) { client in
                let store = PostgresStore(client: client, logger: Logger(label: "test-postgres"))
                try await store.migrate()
                return try await body(store)
            }
        }
    }

    private static func administer(_ statement: String) async throws {
        try await withClient(database: "postgres") { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: statement))
        }
    }
}
