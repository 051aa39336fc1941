import Logging
import PostgresNIO
import ShareHistory

extension PostgresConnection {
    /// Runs `body` holding the session's advisory lock `key` (one-key form), released after whatever `body` does;
    /// when `waiting` is false and another session holds it, returns nil without running `body`.
    func holdingAdvisoryLock<T: Sendable>(
        _ key: Int64, waiting: Bool, logger: Logger, _ body: () async throws -> T
    ) async throws -> T? {
        if waiting {
            try await run("SELECT pg_advisory_lock(\(key))", logger: logger)
        } else {
            for try await taken in try await query("SELECT pg_try_advisory_lock(\(key))", logger: logger).decode(Bool.self) where !taken {
                return nil
            }
        }
        do {
            let value = try await body()
            try await run("SELECT pg_advisory_unlock(\(key))", logger: logger)
            return value
        } catch {
            try? await run("SELECT pg_advisory_unlock(\(key))", logger: logger)
            throw error
        }
    }
}
