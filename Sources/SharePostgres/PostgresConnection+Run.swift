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
}
