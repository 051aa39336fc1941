import Logging
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite

/// The one place that picks the store from `[database]`: the PostgreSQL database of `url`, else the SQLite file of
/// `path`, each opened by its own module.
enum StoreChoice {
    @Sendable static func open(_ settings: DatabaseSettings, lanes: ReadLanes, logger: Logger) async throws -> ServedStore {
        guard let address = settings.postgres else { return try .sqlite(settings, lanes: lanes, logger: logger) }
        return try await .postgres(address, settings, lanes: lanes, logger: logger)
    }
}
