import Foundation
import Logging
import ServiceLifecycle
import ShareKit
import ShareStore

/// `[database] backup_dir`: a backup every `backup_every`, named by its time, the `backup_keep` newest kept.
struct AutomaticBackups: Service {
    let database: String
    let directory: String
    let every: Duration
    let keep: Int
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await Task.sleep(for: every)
                    backUp(now: .now())
                }
            }
        } catch is CancellationError {
            // The daemon is stopping, between two backups.
        }
    }

    /// One backup, then the oldest ones beyond `keep` go. A failure is logged; the next interval tries again.
    func backUp(now: Timestamp) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let stamp = now.description.replacingOccurrences(of: ":", with: "")
            let summary = try Backups.backUp(databaseAt: database, to: "\(directory)/share-\(stamp).db")
            logger.info("backup written", metadata: ["backup": "\(summary)"])
            let backups = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasPrefix("share-") && $0.hasSuffix(".db") }.sorted()
            for old in backups.dropLast(keep) {
                try FileManager.default.removeItem(atPath: "\(directory)/\(old)")
                logger.info("old backup removed", metadata: ["backup": "\(old)"])
            }
        } catch {
            logger.error("backup failed", metadata: ["error": "\(error)"])
        }
    }
}
