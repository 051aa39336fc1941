import Synchronization

/// How many uploads receive bytes at once, at most (`max_uploads`): each holds a connection, a chunk of memory and
/// the disk's attention, so past the bound a new one is told to come back (503 with `Retry-After`).
final class UploadSlots: Sendable {
    private let count = Mutex(0)
    let limit: Int
    static let retryAfterSeconds = 5

    init(limit: Int) {
        self.limit = limit
    }

    func enter() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        count.withLock { $0 -= 1 }
    }
}
