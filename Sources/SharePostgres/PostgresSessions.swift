import Logging
import PostgresNIO
import Synchronization

/// Stops in the server the statement of a task that is cancelled (its client has gone): PostgresNIO leaves a
/// running statement to finish when its task is cancelled. Another connection of the pool asks the server to
/// cancel it (`pg_cancel_backend`), which ends it with an error. The connection goes back to the pool only once
/// that request was either never sent (still waiting for a connection when the statement ended by itself: it is
/// dropped, so that requests left by many clients at once cannot hold every connection waiting for one) or sent
/// and followed by a statement of its own, so that the cancellation can never reach anyone else's.
final class StatementCancelling: Sendable {
    /// The server process of each connection the pool has had, asked once per connection.
    private let backends = Mutex<[PostgresConnection.ID: Int32]>([:])

    /// Runs `body` on `connection`, its statement cancelled in the server if the task is.
    func run<T: Sendable>(
        on connection: PostgresConnection, _ client: PostgresClient, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        let backend = try await backend(of: connection, logger: logger)
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

    private func backend(of connection: PostgresConnection, logger: Logger) async throws -> Int32 {
        if let known = backends.withLock({ $0[connection.id] }) { return known }
        var found: Int32 = 0
        for try await backend in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(Int32.self) { found = backend }
        backends.withLock { backends in
            // Connections the pool closed are forgotten now and then.
            if backends.count > 1000 { backends.removeAll() }
            backends[connection.id] = found
        }
        return found
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
