import Logging
import PostgresNIO
import ShareKit
import ShareStore

extension PostgresStore {
    /// Runs a read a request can make heavy (a listing, statistics, an export's chunk) through the lanes: first
    /// with each statement held to `lanes.quickTime` (`statement_timeout`, in a transaction of its own), then, past
    /// it, in the heavy lane without a limit. Either way, the statement of a read whose request is cancelled (its
    /// client has gone) is cancelled in the server (`StatementCancelling`).
    func laneRead<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> T) async throws -> T {
        let milliseconds = max(1, lanes.quickTime.components.seconds * 1000 + lanes.quickTime.components.attoseconds / 1_000_000_000_000_000)
        return try await lanes.read(
            quick: {
                try await read { connection in
                    try await cancelling.run(on: connection, client, logger: logger) { () -> T? in
                        do {
                            return try await connection.withTransaction(logger: logger) { connection in
                                try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"), logger: logger)
                                return try await body(connection)
                            }
                        } catch let error as PostgresTransactionError where Self.isStatementTimeout(error.closureError) {
                            return nil
                        }
                    }
                }
            },
            heavy: {
                try await read { connection in try await cancelling.run(on: connection, client, logger: logger) { try await body(connection) } }
            })
    }

    /// Whether `error` is the server cancelling a statement that ran out of time.
    private static func isStatementTimeout(_ error: (any Error)?) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "57014"
    }
}
