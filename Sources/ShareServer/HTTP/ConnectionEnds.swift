import NIOCore
import Synchronization

/// Tells a request's work when its connection has ended (`ClientGoneMiddleware`): the `ConnectionGuard` reports
/// each connection's end here, and the request in progress on it, if any, is waiting. One waiter a connection at
/// a time, removed when its request ends, so a connection kept alive for a million requests holds nothing.
public final class ConnectionEnds: Sendable {
    private let waiters = Mutex<[ObjectIdentifier: AsyncStream<Void>.Continuation]>([:])

    public init() {}

    /// Returns once `channel` has ended, or at once when the waiting task is cancelled.
    func ended(_ channel: any Channel) async {
        let key = ObjectIdentifier(channel)
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let open = waiters.withLock { waiters in
            guard channel.isActive else { return false }
            waiters[key] = continuation
            return true
        }
        guard open else { return }
        for await _ in stream {}
        waiters.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// `channel` has ended: the request waiting on it, if any, hears of it.
    func end(_ channel: any Channel) {
        waiters.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }?.finish()
    }
}
