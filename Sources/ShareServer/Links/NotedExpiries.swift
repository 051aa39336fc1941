import ShareKit
import Synchronization

/// The expired links this process has already recorded as such (with the limits they had), so that requests for an
/// expired link ask the store to record it once, not each time: the store's check is a write on SQLite.
final class NotedExpiries: Sendable {
    private let noted = Mutex<Set<String>>([])

    /// True the first time `record` (with these limits) is seen expired.
    func isNew(_ record: ShareRecord) -> Bool {
        let key = "\(record.linkToken ?? "") \(record.expiresAt?.millisecondsSinceEpoch ?? 0) \(record.maxDownloads ?? 0)"
        return noted.withLock { noted in
            if noted.count >= 10_000 { noted.removeAll() }
            return noted.insert(key).inserted
        }
    }
}
