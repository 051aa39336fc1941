import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit
import Synchronization

/// Delivers every history's webhooks for as long as the server runs: takes each delivery that falls due (leased to
/// this node, so that on several nodes one sends it) and sends it in a task of its own, which then takes the next due
/// until none is, so a receiver that hangs holds nothing but its own hook; looks again every second when nothing is
/// due. On shutdown, deliveries in flight stop
/// and their leases run out, to be sent again: at least once.
public struct HookDeliverer: Service {
    let store: any ShareStore
    let sender: HookSender
    let logger: Logger
    /// How long a node holds a hook it is delivering: the receiver's time and a margin. A node killed mid-delivery
    /// leaves the hook to another once it runs out.
    let lease: Duration
    static let inFlight = 64

    public init(store: any ShareStore, settings: HooksSettings, version: String, logger: Logger) {
        self.store = store
        sender = HookSender(settings: settings, version: version)
        self.logger = logger
        lease = .seconds(settings.timeoutSeconds + 5)
    }

    public func run() async throws {
        let running = Running()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    guard running.count.load(ordering: .relaxed) < Self.inFlight, let due = await takeDue() else {
                        try? await Task.sleep(for: .seconds(1))
                        continue
                    }
                    running.count.add(1, ordering: .relaxed)
                    // Once sent, the task goes on to whatever is due next: a hook's next event waits for no poll.
                    group.addTask {
                        var next: DueDelivery? = due
                        while let current = next, !Task.isCancelled {
                            await deliver(current)
                            next = await takeDue()
                        }
                        running.count.subtract(1, ordering: .relaxed)
                    }
                }
            }
        }
    }

    private func takeDue() async -> DueDelivery? {
        let now = Timestamp.now()
        do {
            return try await store.takeDueDelivery(now: now, leaseUntil: now.adding(lease))
        } catch {
            logger.warning("webhook deliveries could not be read", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func deliver(_ due: DueDelivery) async {
        let outcome = await sender.send(due)
        guard !Task.isCancelled else { return }
        if let error = outcome.error {
            logger.info(
                "webhook delivery failed",
                metadata: ["hook": "\(due.hookID)", "event": "\(due.event.id)", "attempt": "\(due.attempt)", "error": "\(error)"])
        }
        if case .disable(let reason) = outcome.next {
            logger.warning("webhook disabled", metadata: ["hook": "\(due.hookID)", "reason": "\(reason)"])
        }
        do {
            try await store.recordDelivery(due, outcome, now: .now())
        } catch {
            logger.warning("a webhook delivery could not be recorded; it is sent again", metadata: ["hook": "\(due.hookID)", "error": "\(error)"])
        }
    }
}

/// How many deliveries are in flight.
private final class Running: Sendable {
    let count = Atomic(0)
}
