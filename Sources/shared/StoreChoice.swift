import Logging
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite

/// The one place that picks the store from `[database]`: the PostgreSQL database of `url`, else the SQLite file of
/// `path`, each opened by its own module; and where new files go, from `[files]`.
enum StoreChoice {
    @Sendable static func open(_ config: ShareConfig, lanes: ReadLanes, logger: Logger) async throws -> ServedStore {
        let settings = config.database
        let bucket = try await BucketChoice.open(config.files, requestTimeout: config.server.requestTimeoutSeconds, logger: logger)
        guard let address = settings.postgres else { return try .sqlite(settings, lanes: lanes, logger: logger, bucket: bucket) }
        return try await .postgres(address, settings, lanes: lanes, logger: logger, bucket: bucket)
    }

    /// Runs `body` with the store of `settings`, opened and migrated as `shared` would (SQLite: taking its file's
    /// lock), for a command that works on the history without serving it.
    static func withStore<T: Sendable>(_ settings: DatabaseSettings, _ body: @Sendable (any ShareStore) async throws -> T) async throws -> T {
        guard let postgres = settings.postgres else { return try await body(try SQLiteStore(path: settings.path)) }
        return try await withPostgres(postgres, settings) { store in
            try await store.migrate()
            return try await body(store)
        }
    }

    /// Runs `body` with the PostgreSQL store of `address`, as it is (not migrated).
    static func withPostgres<T: Sendable>(
        _ address: PostgresAddress, _ settings: DatabaseSettings, _ body: @Sendable (PostgresStore) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "shared")
        return try await PostgresStore.withRunningClient(try ServedStore.postgresConfiguration(address, settings), logger: logger) { client in
            try await body(PostgresStore(client: client, logger: logger))
        }
    }
}
