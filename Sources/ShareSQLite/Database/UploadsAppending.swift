import Synchronization

/// The uploads a request is appending to now: a second request for the same one is refused rather than let write
/// over the first's bytes. This process is the database's one writer (`DatabaseLock`), so this is every such request.
final class UploadsAppending: Sendable {
    private let ids = Mutex<Set<String>>([])

    func begin(_ id: String) -> Bool {
        ids.withLock { $0.insert(id).inserted }
    }

    func contains(_ id: String) -> Bool {
        ids.withLock { $0.contains(id) }
    }

    func end(_ id: String) {
        _ = ids.withLock { $0.remove(id) }
    }
}
