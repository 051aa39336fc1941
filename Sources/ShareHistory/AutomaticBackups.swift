import Foundation
import Logging
import ServiceLifecycle
import ShareKit

/// `[database] backup_dir`: a backup whenever the newest is `backup_every` old, named by its time, the
/// `backup_keep` newest of the folder kept. It looks every minute (or four times per `backup_every`, when that is
/// shorter), so that a daemon that restarts keeps to the interval instead of starting it over.
package struct AutomaticBackups: Service {
    let directory: String
    let every: Duration
    let keep: Int
    let writer: any BackupWriter
    let logger: Logger

    package init(directory: String, every: Duration, keep: Int, writer: any BackupWriter, logger: Logger) {
        self.directory = directory
        self.every = every
        self.keep = keep
        self.writer = writer
        self.logger = logger
    }

    package func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await Task.sleep(for: min(every / 4, .seconds(60)))
                    await backUpIfDue(now: .now())
                }
            }
        } catch is CancellationError {
            // The daemon is stopping, between two looks.
        }
    }

    /// One backup when one is due, then the oldest ones beyond `keep` go: after a failed look too, since one cut off
    /// by the daemon's stop may have written its file. A failure is logged; the next look tries again.
    package func backUpIfDue(now: Timestamp) async {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let newest = try backups().last.flatMap { name in
                try FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)")[.modificationDate] as? Date
            }
            let stamp = now.description.replacingOccurrences(of: ":", with: "")
            let file = "\(directory)/share-\(stamp).\(writer.fileExtension)"
            if let summary = try await writer.backUp(to: file, every: every, newestHere: newest) {
                logger.info("backup written", metadata: ["backup": "\(summary)", "file": "\(file)"])
            }
        } catch {
            logger.error("backup failed", metadata: ["error": "\(error)"])
        }
        do {
            for old in try backups().dropLast(keep) {
                try FileManager.default.removeItem(atPath: "\(directory)/\(old)")
                // The files of its shares, where its store keeps them beside it.
                try? FileManager.default.removeItem(atPath: "\(directory)/\(old).files")
                logger.info("old backup removed", metadata: ["backup": "\(old)"])
            }
        } catch {
            logger.error("old backups could not be removed", metadata: ["error": "\(error)"])
        }
    }

    /// The folder's backups, oldest first (their names hold their times).
    private func backups() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("share-") && $0.hasSuffix(".\(writer.fileExtension)") }
            .sorted()
    }
}

/// How one store writes its automatic backups.
package protocol BackupWriter: Sendable {
    /// The backups' file extension.
    var fileExtension: String { get }

    /// Writes a backup into `file` and says what it holds, when the newest backup is `every` old or older (this
    /// folder's newest being from `newestHere`); nil when none is due.
    func backUp(to file: String, every: Duration, newestHere: Date?) async throws -> String?
}
