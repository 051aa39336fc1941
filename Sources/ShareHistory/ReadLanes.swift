import Foundation
import ShareKit

/// Two lanes for the reads a request can make heavy (listings, statistics, exports): each read first runs with a
/// budget of `quickWork` of SQLite's work (on PostgreSQL, which counts none, `quickTime` per statement), which a
/// page of a common listing takes a small part of; one that has not finished by then gives its reader back and
/// goes to the heavy lane, where at most `heavySlots` run at a time. So however many heavy reads arrive, readers
/// are left for the quick ones. A heavy read that waits longer than `heavyWait` for its slot is refused
/// (`ShareError.busy`), and no work is done for it.
public struct ReadLanes: Sendable {
    /// Which lane a read went through, for the metrics.
    public enum Outcome: String, Sendable {
        case quick, heavy, shed
    }

    /// The work (`WorkBudget`) a quick read may take by default: two milliseconds or so.
    public static let defaultQuickWork = 200_000
    /// The time each statement of a quick read may take on a database server, which counts no work, by default:
    /// some twenty times what a page of a common listing needs.
    public static let defaultQuickTime = Duration.milliseconds(50)

    /// The heavy lane's slots by default: half the cores, at least one, and fewer than the readers (GRDB's pool
    /// keeps five).
    public static var defaultHeavySlots: Int {
        min(4, max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
    }

    public let heavySlots: Int
    public let heavyWait: Duration
    /// The work (`WorkBudget`) a read may take in the quick lane.
    public let quickWork: Int
    /// The time each statement of a read may take in the quick lane on a database server (PostgreSQL).
    public let quickTime: Duration
    let gate: LaneGate
    /// Told of every read's lane (the server counts them).
    private let observe: @Sendable (Outcome) -> Void

    public init(
        heavySlots: Int = ReadLanes.defaultHeavySlots, heavyWait: Duration = .seconds(5), quickWork: Int = ReadLanes.defaultQuickWork,
        quickTime: Duration = ReadLanes.defaultQuickTime, observe: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) {
        self.heavySlots = max(1, heavySlots)
        self.heavyWait = heavyWait
        self.quickWork = quickWork
        self.quickTime = quickTime
        gate = LaneGate(slots: self.heavySlots)
        self.observe = observe
    }

    /// Whether no heavy read waits for a slot now.
    package var nobodyWaits: Bool { gate.waiting == 0 }

    /// What a read gives: `quick`'s value, or, when `quick` outgrew its budget (nil, its connection given back),
    /// `heavy`'s in the heavy lane once a slot is free.
    package func read<T: Sendable>(quick: () async throws -> T?, heavy: () async throws -> T) async throws -> T {
        if let value = try await quick() {
            observe(.quick)
            return value
        }
        guard await gate.enter(within: heavyWait) else {
            try Task.checkCancellation()
            observe(.shed)
            throw ShareError.busy(retryAfterSeconds: Int(heavyWait.components.seconds) + 1)
        }
        observe(.heavy)
        do {
            let value = try await heavy()
            await gate.leave()
            return value
        } catch {
            await gate.leave()
            throw error
        }
    }
}
