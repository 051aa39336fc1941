import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit

/// Purges the records that have been in the trash longer than `[database] trash_days`: when the daemon starts,
/// then every hour, until it stops. Each run logs how many it purged.
struct TrashRetention: Service {
    let store: any ShareStore
    let days: Int
    let logger: Logger

    static let interval = Duration.seconds(3600)

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await purge(now: .now())
                    try await Task.sleep(for: Self.interval)
                }
            }
        } catch is CancellationError {
            // The daemon is stopping: so does the retention, between two runs.
        }
    }

    /// One run: what was trashed more than `days` days before `now` goes for good.
    func purge(now: Timestamp) async throws {
        let limit = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - Int64(days) * Timestamp.millisecondsPerDay)
        let purged = try await store.purgeTrash(trashedBefore: limit)
        logger.info("trash retention", metadata: ["purged": "\(purged)", "trash_days": "\(days)"])
    }
}
