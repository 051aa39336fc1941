import Logging
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// Runs a read a request can make heavy (a listing, statistics, an export's chunk) through the lanes: first on a
    /// session whose statements may take `lanes.quickTime` each (`statement_timeout`), then, past it, in the heavy
    /// lane on one without a limit. Either way, the statement of a read whose request is cancelled (its client has
    /// gone) is cancelled in the server.
    func laneRead<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> T) async throws -> T {
        try await lanes.read(
            quick: {
                try await lease(statementTimeout: quickMilliseconds) { connection in
                    try await sessions.cancellingWithTask(on: connection, client, logger: logger) { () -> T? in
                        do {
                            return try await body(connection)
                        } catch  where PostgresSessions.isTimeout(error) && !Task.isCancelled {
                            return nil
                        }
                    }
                }
            },
            heavy: {
                try await lease(statementTimeout: 0) { connection in
                    try await sessions.cancellingWithTask(on: connection, client, logger: logger) { try await body(connection) }
                }
            })
    }
}
