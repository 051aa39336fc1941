import PostgresNIO
import ShareHistory
import ShareKit
import Synchronization

extension PostgresClient {
    /// Runs `body` on a connection of the pool, waiting at most `wait` for one: a pool that cannot connect
    /// (the database is down, restarting, refusing) keeps trying by itself, and the request is told so at once
    /// (`ShareError.storeUnreachable`, a 503) instead of waiting for it.
    func withConnection<T: Sendable>(
        waitingAtMost wait: Duration, _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws -> T {
        let leased = LeaseFlag()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await self.withConnection { connection in
                    leased.value.store(true, ordering: .releasing)
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: wait)
                guard leased.value.load(ordering: .acquiring) else {
                    throw ShareError.storeUnreachable("no connection to PostgreSQL within \(wait.components.seconds) s")
                }
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let value = result { return value }
            }
            throw CancellationError()
        }
    }
}

/// Set once a connection has been leased.
private final class LeaseFlag: Sendable {
    let value = Atomic<Bool>(false)
}
