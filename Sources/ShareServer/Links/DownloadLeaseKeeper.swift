import ShareHistory
import ShareKit
import Synchronization

/// Renews the lease of a download being sent (`DownloadLease`) every `DownloadLease.renewal`, asked each time the
/// sending checks that its link still opens.
final class DownloadLeaseKeeper: Sendable {
    private let store: any ShareStore
    private let entry: Int64
    private let renewed = Mutex(ContinuousClock.now)

    init(store: any ShareStore, entry: Int64) {
        self.store = store
        self.entry = entry
    }

    /// Renews the lease when it is due; a renewal that fails throws, and stops the sending.
    func renew() async throws {
        let due = renewed.withLock { last in
            guard ContinuousClock.now - last >= DownloadLease.renewal else { return false }
            last = .now
            return true
        }
        if due { try await store.keepSending(entry, until: DownloadLease.until(.now())) }
    }
}
