import Foundation
import GRDB
import ShareKit
import StoreTestSupport
import Synchronization
import Testing

@testable import ShareHistory
@testable import ShareSQLite

/// Listings, statistics and exports that outgrow a few milliseconds of work move to a lane of their own, so that
/// the quick ones always find a reader; when the heavy lane is full for too long, a heavy read is refused with
/// `busy` and no work is done for it.
@Suite struct ReadLanesTests {
    /// Which lane each read went through.
    private final class Lanes: Sendable {
        let outcomes = Mutex<[ReadLanes.Outcome]>([])
        func lanes(slots: Int, wait: Duration) -> ReadLanes {
            // A quick read's budget that a page of 100 fits in, and statistics over 3,000 records do not.
            ReadLanes(heavySlots: slots, heavyWait: wait, quickWork: 30_000) { outcome in self.outcomes.withLock { $0.append(outcome) } }
        }
        var seen: [ReadLanes.Outcome] { outcomes.withLock { $0 } }
    }

    /// 3,000 records whose names all hold "common": their statistics by name read every one of them.
    private static func history(_ lanes: ReadLanes) async throws -> SQLiteStore {
        var database = try SQLiteStore.temporary()
        let session = try await database.sharedHistory.beginImport()
        _ = try await session.stage(
            try (1...3000).map { line in (line, try NewShare(id: nil, name: "common \(line).pdf", folder: nil, createdAt: nil, size: 1)) })
        _ = try await session.finish()
        database.lanes = lanes
        return database
    }

    private static var everyCommonName: ShareQuery {
        var query = ShareQuery()
        query.nameWords = ["common"]
        return query
    }

    @Test func aQuickReadStaysQuickAndAHeavyOneMovesToItsLane() async throws {
        let observed = Lanes()
        let database = try await Self.history(observed.lanes(slots: 1, wait: .seconds(60)))
        #expect(try await database.sharedHistory.listShares(ShareQuery()).records.count == 100)
        #expect(try await database.sharedHistory.stats(Self.everyCommonName, by: StatsPeriod.none).count == 3000)
        #expect(observed.seen == [.quick, .heavy])
    }

    @Test func whileTheHeavyLaneIsFullQuickReadsAreAnsweredAndHeavyOnesAreShed() async throws {
        let observed = Lanes()
        let lanes = observed.lanes(slots: 1, wait: .milliseconds(1))
        let database = try await Self.history(lanes)
        #expect(await lanes.gate.enter(within: .seconds(1)), "the one heavy slot, held")
        #expect(try await database.sharedHistory.listShares(ShareQuery()).records.count == 100)
        await #expect(throws: ShareError.busy(retryAfterSeconds: 1)) {
            try await database.sharedHistory.stats(Self.everyCommonName, by: StatsPeriod.none)
        }
        await lanes.gate.leave()
        #expect(try await database.sharedHistory.stats(Self.everyCommonName, by: StatsPeriod.none).count == 3000)
        #expect(observed.seen == [.quick, .shed, .heavy])
    }

    @Test func theGateAdmitsInTurnAndLetsWaitersGo() async throws {
        let gate = LaneGate(slots: 1)
        #expect(await gate.enter(within: .seconds(1)))
        let waiter = Task { await gate.enter(within: .seconds(600)) }
        while gate.waiting == 0 { await Task.yield() }
        await gate.leave()
        #expect(await waiter.value, "the slot passes to the first in line")
        let cancelled = Task { await gate.enter(within: .seconds(600)) }
        while gate.waiting == 0 { await Task.yield() }
        cancelled.cancel()
        #expect(await cancelled.value == false, "a waiter whose client has gone leaves the line at once")
        #expect(gate.waiting == 0)
    }
}
