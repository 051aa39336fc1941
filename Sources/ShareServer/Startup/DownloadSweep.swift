import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit

/// Gives back the downloads whose node stopped sending them without a word (killed, or cut off from the store): every
/// `DownloadLease.renewal`, those whose lease ran out (`ShareStore.giveBackStoppedDownloads`). On several nodes each
/// sweeps; a download is given back once.
struct DownloadSweep: Service {
    let store: any ShareStore
    let logger: Logger

    /// Until the daemon stops: its own downloads then end (and give back) with their connections.
    func run() async throws {
        try await repeating(every: DownloadLease.renewal) { await sweep(now: .now()) }
    }

    /// One sweep at `now`; a store that fails it is asked again at the next.
    func sweep(now: Timestamp) async {
        do {
            let given = try await store.giveBackStoppedDownloads(now: now)
            if given > 0 { logger.warning("downloads given back: their node stopped sending", metadata: ["downloads": "\(given)"]) }
        } catch {
            logger.error("downloads not swept", metadata: ["error": "\(error)"])
        }
    }
}
