import PostgresNIO
import ShareHistory
import ShareKit
import Synchronization

/// Answers the work on a connection of the pool as soon as that connection closes, whatever the work does.
///
/// PostgresNIO can leave a statement that was under way when the server went away (an immediate restart under
/// writers) unanswered for ever: the connection is closed, yet the statement's continuation is never resumed, and the
/// request would wait for it, its lease with it, and a graceful shutdown behind them. Here the work runs in a task of
/// its own, and its caller is told `ShareError.storeUnreachable` when the connection closes first; the work left
/// behind holds nothing but its own memory.
final class PostgresClosedConnections: Sendable {
    /// What to do when each connection that work runs on now closes.
    private let onClose = Mutex<[PostgresConnection.ID: @Sendable () -> Void]>([:])
    /// The connections whose close is watched.
    private let watched = Mutex<Set<PostgresConnection.ID>>([])

    /// Runs `body` on `connection`, answering with its result, or with `ShareError.storeUnreachable` as soon as the
    /// connection closes. Cancelling the caller cancels `body`.
    func run<T: Sendable>(on connection: PostgresConnection, _ body: @Sendable @escaping () async throws -> T) async throws -> T {
        let work = Mutex<Task<Void, Never>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let answer = SingleAnswer(continuation)
                watch(connection) {
                    answer.give(.failure(ShareError.storeUnreachable("the connection to PostgreSQL closed during the request")))
                }
                work.withLock { started in
                    started = Task {
                        let result: Result<T, any Error>
                        do {
                            result = .success(try await body())
                        } catch {
                            result = .failure(error)
                        }
                        // Before the answer: once answered, the connection may go back to the pool and to other work.
                        self.onClose.withLock { _ = $0.removeValue(forKey: connection.id) }
                        answer.give(result)
                    }
                    // Cancelled before the work had a task to cancel: `onCancel` found none.
                    if Task.isCancelled { started?.cancel() }
                }
            }
        } onCancel: {
            work.withLock { $0?.cancel() }
        }
    }

    /// Calls `closed` when `connection` closes (at once if it has), unless other work on it replaces it first.
    private func watch(_ connection: PostgresConnection, _ closed: @Sendable @escaping () -> Void) {
        let id = connection.id
        onClose.withLock { $0[id] = closed }
        guard watched.withLock({ $0.insert(id).inserted }) else { return }
        connection.closeFuture.whenComplete { [self] _ in
            watched.withLock { _ = $0.remove(id) }
            onClose.withLock { $0.removeValue(forKey: id) }?()
        }
    }
}

/// A continuation resumed by the first of several answers.
private final class SingleAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ result: Result<T, any Error>) {
        continuation.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(with: result)
    }
}
