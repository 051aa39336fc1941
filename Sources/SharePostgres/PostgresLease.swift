import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresClient {
    /// Runs `body` on a connection of the pool, waiting at most `wait` (and up to a tick of `watch`) for one: a pool
    /// that cannot connect (the database is down, restarting, refusing) keeps trying by itself, and the request is
    /// told so at once (`ShareError.storeUnreachable`, a 503) instead of waiting for it.
    func withConnection<T: Sendable>(
        waitingAtMost wait: Duration, watch: PostgresLeaseWatch, _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws -> T {
        let ticket = PostgresLeaseWatch.Ticket(deadline: .now + wait)
        let number = watch.add(ticket)
        defer { watch.remove(number) }
        // A task of its own, which the watch cancels: the pool gives up a wait only when its task is cancelled.
        let lease = Task {
            try await self.withConnection { connection in
                guard ticket.begin() else { throw CancellationError() }
                return try await body(connection)
            }
        }
        ticket.onExpiry { lease.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await lease.value
            } onCancel: {
                lease.cancel()
            }
        } catch  where ticket.hasExpired {
            throw ShareError.storeUnreachable("no connection to PostgreSQL within \(wait / .seconds(1)) s")
        }
    }
}
