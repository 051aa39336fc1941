import Synchronization

/// The leases waiting for a connection of the pool, each ended once it has waited its time: one task looks at them
/// every `tick`, instead of a timer per lease, whose wake-ups cost a fifth of a plain page's CPU.
final class PostgresLeaseWatch: Sendable {
    static let tick = Duration.milliseconds(100)

    private struct Waiting {
        var next: UInt64 = 0
        var tickets: [UInt64: Ticket] = [:]
        var watching = false
    }

    private let waiting = Mutex(Waiting())

    /// Watches `ticket` until `remove` is given the number returned.
    func add(_ ticket: Ticket) -> UInt64 {
        let (number, start) = waiting.withLock { waiting in
            waiting.next += 1
            waiting.tickets[waiting.next] = ticket
            let start = !waiting.watching
            waiting.watching = true
            return (waiting.next, start)
        }
        if start { watch() }
        return number
    }

    func remove(_ number: UInt64) {
        _ = waiting.withLock { $0.tickets.removeValue(forKey: number) }
    }

    /// Ends the waits past their deadline, every tick from the first lease on, for as long as the watch exists.
    private func watch() {
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: Self.tick)
                guard let self else { return }
                let now = ContinuousClock.now
                for ticket in waiting.withLock({ Array($0.tickets.values) }) { ticket.expire(ifPast: now) }
            }
        }
    }

    /// One lease's wait: it ends when the lease begins or when its deadline passes, whichever comes first.
    final class Ticket: Sendable {
        private enum Stage {
            case waiting((@Sendable () -> Void)?)
            case leased
            case expired
        }

        let deadline: ContinuousClock.Instant
        private let stage = Mutex(Stage.waiting(nil))

        init(deadline: ContinuousClock.Instant) {
            self.deadline = deadline
        }

        /// Ends the wait as the lease begins; false when the deadline ended it first.
        func begin() -> Bool {
            stage.withLock { stage in
                guard case .waiting = stage else { return false }
                stage = .leased
                return true
            }
        }

        /// What to run when the deadline ends the wait (at once if it already has).
        func onExpiry(_ action: @escaping @Sendable () -> Void) {
            let expired = stage.withLock { stage in
                switch stage {
                case .waiting: stage = .waiting(action)
                case .leased: break
                case .expired: return true
                }
                return false
            }
            if expired { action() }
        }

        var hasExpired: Bool {
            stage.withLock { stage in
                if case .expired = stage { return true }
                return false
            }
        }

        fileprivate func expire(ifPast now: ContinuousClock.Instant) {
            guard now >= deadline else { return }
            let action = stage.withLock { stage -> (@Sendable () -> Void)? in
                guard case .waiting(let action) = stage else { return nil }
                stage = .expired
                return action
            }
            action?()
        }
    }
}
