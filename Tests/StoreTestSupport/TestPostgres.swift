import Foundation
import Logging
import PostgresNIO
import ShareChildProcess
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite
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

    /// `postgresql://postgres@/NAME?host=FOLDER`: the database as `[database] url` names it.
    public static func url(of database: String, inClusterAt folder: String? = nil) throws -> String {
        "postgresql://postgres@/\(database)?host=\(try folder ?? socketFolder())"
    }

    private static let made = Atomic<Int>(0)

    /// How long a test's store waits for a connection.
    static let patience = Duration.seconds(120)

    /// A new database's name, unique in the cluster across test processes.
    public static func newDatabaseName() -> String {
        "share_test_\(getpid())_\(made.add(1, ordering: .relaxed).newValue)"
    }

    /// The daemon's own configuration of a pool of four connections to `database`.
    static func configuration(database: String) throws -> PostgresClient.Configuration {
        PostgresStore.clientConfiguration(try PostgresAddress(url: try url(of: database)), password: nil, poolSize: 4)
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
                // Under the whole suite's load, the pool may be slow to get its first connection: tests wait for it.
                let store = PostgresStore(client: client, logger: Logger(label: "test-postgres"), connectionWait: Self.patience)
                try await store.migrate(waitingAtMost: Self.patience)
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

/// A PostgreSQL cluster of one test's own (`scripts/postgres-cluster`), for a test that stops and starts the server
/// under load, which the tests sharing the suite's cluster must never see. Deleted with the value.
public final class OwnCluster: Sendable {
    /// The folder of its unix socket.
    public let folder: String
    /// The TCP port it listens on at 127.0.0.1, if any (which names its socket too).
    public let port: Int?

    /// A cluster on a unix socket; with `tcpPort`, on 127.0.0.1 at that port too, with TLS when `tls` (its
    /// self-signed certificate, for 127.0.0.1, in `folder/server.crt`).
    public init(tcpPort: Int? = nil, tls: Bool = false) throws {
        port = tcpPort
        let listening = tcpPort.map { [tls ? "tls" : "tcp", String($0)] } ?? []
        folder = try Self.script(["start"] + listening).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = try? Self.script(["stop", folder])
    }

    /// Stops the server, cutting its connections (`pg_ctl stop --mode=fast`); the data stays.
    public func pause() throws {
        _ = try Self.script(["pause", folder])
    }

    /// Starts the server again.
    public func resume() throws {
        _ = try Self.script(["resume", folder])
    }

    /// Stops the server as a crash would (`pg_ctl stop --mode=immediate`: no checkpoint, recovery at the next start)
    /// and starts it again.
    public func crash() throws {
        _ = try Self.script(["crash", folder])
    }

    /// Creates a database in this cluster and returns its `[database] url`, on the unix socket.
    public func newDatabase() throws -> String {
        try TestPostgres.url(of: try newDatabaseName(), inClusterAt: folder)
    }

    /// Creates a database in this cluster and returns its name.
    public func newDatabaseName() throws -> String {
        let name = TestPostgres.newDatabaseName()
        _ = try psql("CREATE DATABASE \(name)")
        return name
    }

    /// What `psql` prints for `sql` in `database`, on the socket: values only, a row a line.
    public func psql(_ sql: String, in database: String = "postgres") throws -> String {
        let port = port.map { ["--port", String($0)] } ?? []
        return try ChildProcess.output(
            of: "/usr/bin/psql",
            ["--host", folder] + port + ["--username", "postgres", "--dbname", database, "--tuples-only", "--no-align", "--command", sql])
    }

    private static let scriptPath = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../scripts/postgres-cluster")
        .standardized.path

    private static func script(_ arguments: [String]) throws -> String {
        try ChildProcess.output(of: scriptPath, arguments)
    }
}
