import Logging
import PostgresNIO
import ShareHistory
import Synchronization

/// What the store knows of the server session behind each connection of its pool: its process, and how long
/// its statements may take (`statement_timeout`, set on the session when it should change, so that the common
/// read pays nothing for it).
///
/// It also stops in the server the statement of a task that is cancelled (its client has gone): PostgresNIO
/// leaves a running statement to finish when its task is cancelled. Another connection of the pool asks the
/// server to cancel it (`pg_cancel_backend`), which ends it with an error. The connection goes back to the pool
/// only once that request was either never sent (still waiting for a connection when the statement ended by
/// itself: it is dropped, so that requests left by many clients at once cannot hold every connection waiting for
/// one) or sent and followed by a statement of its own, so that the cancellation can never reach anyone else's.
final class PostgresSessions: Sendable {
    private struct Session {
        let backend: Int32
        /// Milliseconds; 0: none.
        var statementTimeout: Int64
    }

    private let sessions = Mutex<[PostgresConnection.ID: Session]>([:])

    /// Makes `connection`'s statements time out after `milliseconds` (0: never), unless they already do.
    func limit(_ connection: PostgresConnection, toMilliseconds milliseconds: Int64, logger: Logger) async throws {
        if let session = sessions.withLock({ $0[connection.id] }) {
            guard session.statementTimeout != milliseconds else { return }
            // The SET runs under the limit it replaces: a server too busy to answer it in time cancels it, and it is
            // sent again (it changes nothing until it succeeds).
            for attempt in 1... {
                do {
                    try await connection.query(PostgresQuery(unsafeSQL: "SET statement_timeout = \(milliseconds)"), logger: logger)
                    break
                } catch  where Self.isTimeout(error) && attempt < 5 && !Task.isCancelled {}
            }
            sessions.withLock { $0[connection.id]?.statementTimeout = milliseconds }
            return
        }
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT pg_backend_pid(), set_config('statement_timeout', '\(milliseconds)', false)"), logger: logger)
        for try await (backend, _) in rows.decode((Int32, String).self) {
            sessions.withLock { sessions in
                // Connections the pool closed are forgotten now and then.
                if sessions.count > 1000 { sessions.removeAll() }
                sessions[connection.id] = Session(backend: backend, statementTimeout: milliseconds)
            }
        }
    }

    /// Runs `body` on `connection` (which `limit` has seen), its statement cancelled in the server if the task is.
    func cancellingWithTask<T: Sendable>(
        on connection: PostgresConnection, _ client: PostgresClient, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        guard let backend = sessions.withLock({ $0[connection.id]?.backend }) else { return try await body() }
        let request = CancelRequest()
        let result: Result<T, any Error>
        do {
            result = .success(
                try await withTaskCancellationHandler {
                    try await body()
                } onCancel: {
                    request.start {
                        try await client.withConnection { other in
                            _ = try await other.query("SELECT pg_cancel_backend(\(backend))", logger: logger)
                        }
                    }
                })
        } catch {
            result = .failure(error)
        }
        if let cancel = request.task {
            // A cancellation still waiting for a connection is dropped; one being sent is waited for.
            cancel.cancel()
            if await cancel.result.isSuccess {
                // Ends here whether the cancellation came during `body`, or came idle and was ignored.
                _ = try? await connection.query("SELECT 1", logger: logger)
            }
            throw CancellationError()
        }
        return try result.get()
    }

    /// Whether `error` is the server cancelling a statement that ran out of time (or that another session cancelled).
    static func isTimeout(_ error: (any Error)?) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "57014"
    }
}

/// The request to cancel a statement, once the task is cancelled.
private final class CancelRequest: Sendable {
    private let started = Mutex<Task<Void, any Error>?>(nil)

    func start(_ operation: @Sendable @escaping () async throws -> Void) {
        started.withLock { $0 = Task(operation: operation) }
    }

    var task: Task<Void, any Error>? { started.withLock { $0 } }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
