import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit

/// What the store keeps only for a while: records in the trash longer than `[database] trash_days` (0: kept for
/// ever), uploads that got no byte for a day, and events and webhook deliveries older than `eventDays` (but the
/// events an enabled webhook has still to send). Runs when the daemon starts, then every hour, until it stops;
/// each run logs what it dropped.
struct Retention: Service {
    let store: any ShareStore
    let trashDays: Int
    let logger: Logger

    static let interval = Duration.seconds(3600)
    /// How long events are kept for the stream and the feed to replay, and deliveries for their log.
    static let eventDays: Int64 = 30

    func run() async throws {
        try await repeating(every: Self.interval) { try await purge(now: .now()) }
    }

    /// One run at `now`.
    func purge(now: Timestamp) async throws {
        let dropped = try await store.dropStaleUploads(now: now)
        if dropped > 0 { logger.info("stale uploads dropped", metadata: ["uploads": "\(dropped)"]) }
        let forgotten = try await store.forgetEvents(
            before: Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - Self.eventDays * Timestamp.millisecondsPerDay))
        if forgotten > 0 { logger.info("old events forgotten", metadata: ["events": "\(forgotten)"]) }
        guard trashDays > 0 else { return }
        let limit = Timestamp(millisecondsSinceEpoch: now.millisecondsSinceEpoch - Int64(trashDays) * Timestamp.millisecondsPerDay)
        let purged = try await store.purgeTrash(trashedBefore: limit)
        logger.info("trash retention", metadata: ["purged": "\(purged)", "trash_days": "\(trashDays)"])
    }
}
