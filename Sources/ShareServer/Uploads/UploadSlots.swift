import Synchronization

/// How many uploads receive bytes at once, at most (`max_uploads`): each holds a connection, a chunk of memory and
/// the disk's attention, so past the bound a new one is told to come back (503 with `Retry-After`). One user holds a
/// quarter of them at most (at least one), so that nobody's slow but steady uploads keep everyone else's out.
final class UploadSlots: Sendable {
    private let held = Mutex<(total: Int, byUser: [String: Int])>((0, [:]))
    let limit: Int
    /// The most one user holds at once.
    var perUser: Int { max(1, limit / 4) }
    static let retryAfterSeconds = 5

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot for `user`; nil (no user) when nobody signs in, and the one person using the service may take
    /// every slot.
    func enter(for user: String?) -> Bool {
        held.withLock { held in
            guard held.total < limit else { return false }
            if let user {
                guard held.byUser[user, default: 0] < perUser else { return false }
                held.byUser[user, default: 0] += 1
            }
            held.total += 1
            return true
        }
    }

    func leave(for user: String?) {
        held.withLock { held in
            held.total -= 1
            if let user { held.byUser[user] = held.byUser[user].flatMap { $0 > 1 ? $0 - 1 : nil } }
        }
    }
}
