import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query`, whose rows say nothing (a lock taken, a setting), to its end. An error met after the server
    /// described its rows (a deadlock found while it waited for a lock) comes with the rows: unread, it was lost, and
    /// the transaction, aborted, failed on its next statement instead ("current transaction is aborted"), which is
    /// not a conflict to try again.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }

    /// Takes the advisory lock (`kind`, `key`), two-key form, until the transaction ends; `key` is cut to 32 bits.
    func lockUntilTransactionEnds(_ kind: Int32, _ key: Int64, logger: Logger) async throws {
        try await run("SELECT pg_advisory_xact_lock(\(kind), \(Int32(truncatingIfNeeded: key)))", logger: logger)
    }
}
