import Logging
import ServiceLifecycle
import ShareHistory

/// Deletes in the bucket what the store let go (`ShareStore.releaseFreedObjects`), every `interval` while the daemon
/// runs: what a store that was down or refused left is done at a later run, so nothing is kept for ever.
struct ObjectRelease: Service {
    let store: any ShareStore
    let logger: Logger

    static let interval = Duration.seconds(30)

    /// Until the daemon stops: what is left then is released after the next start.
    func run() async throws {
        try await repeating(every: Self.interval) { await release() }
    }

    func release() async {
        do {
            while try await store.releaseFreedObjects() > 0 {}
        } catch {
            logger.warning("objects no share needs are not deleted yet; tried again soon", metadata: ["error": "\(error)"])
        }
    }
}
