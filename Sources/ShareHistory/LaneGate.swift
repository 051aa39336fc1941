import Synchronization

/// At most `slots` holders at a time; the others wait in line, each for at most a given time. A waiter whose task
/// is cancelled (its client has gone) leaves the line at once.
actor LaneGate {
    private let slots: Int
    private var holders = 0
    private var line: [(ticket: UInt64, admit: CheckedContinuation<Bool, Never>)] = [] {
        didSet { waitingNow.store(line.count, ordering: .relaxed) }
    }
    /// The line's length, for those that cannot wait to ask (a read running on a database thread).
    private nonisolated let waitingNow = Atomic(0)
    private var nextTicket: UInt64 = 0

    init(slots: Int) {
        self.slots = max(1, slots)
    }

    /// Waits for a slot for at most `patience`; false when none came in time, or the task was cancelled.
    func enter(within patience: Duration) async -> Bool {
        if Task.isCancelled { return false }
        if holders < slots && line.isEmpty {
            holders += 1
            return true
        }
        nextTicket += 1
        let ticket = nextTicket
        let timer = Task { [weak self] in
            try? await Task.sleep(for: patience)
            await self?.giveUp(ticket)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { admit in line.append((ticket, admit)) }
        } onCancel: {
            Task { await self.giveUp(ticket) }
        }
    }

    /// Gives the slot to the first in line, or frees it.
    func leave() {
        if line.isEmpty {
            holders -= 1
        } else {
            line.removeFirst().admit.resume(returning: true)
        }
    }

    /// How many wait for a slot now.
    nonisolated var waiting: Int { waitingNow.load(ordering: .relaxed) }

    private func giveUp(_ ticket: UInt64) {
        guard let index = line.firstIndex(where: { $0.ticket == ticket }) else { return }
        line.remove(at: index).admit.resume(returning: false)
    }
}
