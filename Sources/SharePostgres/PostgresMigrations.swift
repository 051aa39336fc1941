import Logging
import PostgresNIO
import ShareHistory

/// Applies `migrations/postgresql/*.sql` in order, each in its own transaction, recording each in
/// `share_migration`; a database holding migrations this binary does not know is refused. Nodes starting together
/// take turns (an advisory lock), so each migration runs once.
enum PostgresMigrations {
    /// The advisory lock the nodes take turns migrating under.
    static let lock: Int64 = 0x5348_4152_455F_4D49

    /// Applies them on a connection of `store`'s pool whose statements take whatever time they need.
    static func apply(_ store: PostgresStore, waitingAtMost wait: Duration) async throws {
        let logger = store.logger
        try await store.lease(waitingAtMost: wait, statementTimeout: 0) { connection in
            _ = try await connection.holdingAdvisoryLock(lock, waiting: true, logger: logger) {
                try await applyMissing(connection, logger: logger)
            }
        }
    }

    private static func applyMissing(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS share_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
            logger: logger)
        let applied = try await appliedNames(connection, logger: logger)
        let known = Set(EmbeddedPostgresMigrations.files.map(\.name))
        let unknown = applied.subtracting(known).sorted()
        guard unknown.isEmpty else { throw StoreError.newerSchema(path: "the PostgreSQL database", unknownMigrations: unknown) }
        for migration in EmbeddedPostgresMigrations.files where !applied.contains(migration.name) {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in SQLStatements.split(migration.text) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO share_migration (name) VALUES (\(migration.name))", logger: logger)
            }
            logger.info("migrated", metadata: ["migration": "\(migration.name)"])
        }
    }

    /// True when every migration this binary carries has been applied.
    static func isUpToDate(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        Set(EmbeddedPostgresMigrations.files.map(\.name)).isSubset(of: try await appliedNames(connection, logger: logger))
    }

    private static func appliedNames(_ connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        var names: Set<String> = []
        for try await name in try await connection.query("SELECT name FROM share_migration", logger: logger).decode(String.self) {
            names.insert(name)
        }
        return names
    }
}
