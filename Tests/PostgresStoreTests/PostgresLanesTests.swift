import Foundation
import PostgresNIO
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Synchronization
import Testing

@testable import ShareHistory
@testable import SharePostgres
@testable import ShareSQLite

/// On PostgreSQL too, listings, statistics and exports that outgrow their quick time move to the heavy lane, so
/// that quick reads always find a connection; a heavy read that cannot get its turn is refused with `busy`; and a
/// read whose client has gone stops its work in the database. Here the heavy read is made heavy by another
/// session's lock on the totals it reads (it waits past any budget, whatever the machine's speed), while listings,
/// which do not read them, stay quick. The test's own sessions (the lock, the look at what waits) are on a client
/// of their own: a session of the store's pool may carry the quick lane's statement timeout, which a busy machine
/// outgrows.
@Suite struct PostgresLanesTests {
    /// Which lane each read went through.
    private final class Outcomes: Sendable {
        let seen = Mutex<[ReadLanes.Outcome]>([])
        /// Lanes whose quick time only a read waiting for the lock outgrows: on a loaded machine a plain listing may
        /// take far more than the daemon's 50 ms, and would then queue behind the blocked read in the heavy lane.
        func lanes(slots: Int = 1, wait: Duration) -> ReadLanes {
            ReadLanes(heavySlots: slots, heavyWait: wait, quickTime: .seconds(5)) { outcome in self.seen.withLock { $0.append(outcome) } }
        }
    }

    /// How many reads have ended.
    private final class Finished: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func aReadPastItsQuickTimeFinishesInTheHeavyLaneWhileQuickOnesStayQuick() async throws {
        try await TestPostgres.withStore { plain in
            let outcomes = Outcomes()
            // Two heavy slots: should the listing outgrow its quick time, it fails the test rather than waits a minute.
            let store = plain.reading(through: outcomes.lanes(slots: 2, wait: .seconds(60)))
            try await store.sharedHistory.add("a.pdf", size: 3)
            let stats = try await store.withLocked("share_total") { _, release in
                let stats = Task { try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none) }
                try await waitUntil("the read moved to the heavy lane") { outcomes.seen.withLock { $0 } == [.heavy] }
                #expect(try await store.sharedHistory.listShares(ShareQuery()).records.count == 1, "a quick read is answered meanwhile")
                release()
                return try await stats.value
            }
            #expect(stats.count == 1 && stats.bytes == 3)
            #expect(outcomes.seen.withLock { $0 } == [.heavy, .quick])
        }
    }

    @Test func whileTheHeavyLaneIsFullAHeavyReadIsRefusedAndDoesNoWork() async throws {
        try await TestPostgres.withStore { plain in
            let outcomes = Outcomes()
            let store = plain.reading(through: outcomes.lanes(wait: .milliseconds(1)))
            try await store.sharedHistory.add("a.pdf", size: 3)
            #expect(await store.lanes.gate.enter(within: .seconds(1)), "the one heavy slot, held")
            try await store.withLocked("share_total") { own, release in
                await #expect(throws: ShareError.busy(retryAfterSeconds: 1)) {
                    try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none)
                }
                let waiting = try await Self.statementsWaitingForALock(own)
                #expect(waiting == 0, "the refused read left nothing running")
                release()
            }
            await store.lanes.gate.leave()
            #expect(try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none).count == 1)
            #expect(outcomes.seen.withLock { $0 } == [.shed, .quick])
        }
    }

    @Test func aReadWhoseClientHasGoneStopsItsStatementInTheDatabase() async throws {
        try await TestPostgres.withStore { plain in
            let store = plain.reading(through: Outcomes().lanes(wait: .seconds(60)))
            try await store.sharedHistory.add("a.pdf", size: 3)
            try await store.withLocked("share_total") { own, release in
                let stats = Task { try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none) }
                try await waitUntil("one statement waits for the lock") { try await Self.statementsWaitingForALock(own) == 1 }
                stats.cancel()
                // The lock is still held: only the server stopping the statement ends its wait.
                try await waitUntil("no statement waits for the lock") { try await Self.statementsWaitingForALock(own) == 0 }
                release()
                _ = await stats.result
            }
            #expect(
                try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none).count == 1, "the pool answers after the closed connection")
        }
    }

    /// Every connection of the pool held by a read whose client then leaves, while the requests to cancel them wait
    /// for a connection: once the reads end by themselves, the waiting requests are dropped and every connection
    /// comes back, rather than each read holding its connection for a request that needs one.
    @Test func readsWhoseClientsAllLeaveWhileEveryConnectionIsBusyGiveTheirConnectionsBack() async throws {
        try await TestPostgres.withStore { plain in
            // A quick time no read here outgrows: each of them holds a connection for as long as it waits.
            let store = plain.reading(through: ReadLanes(heavySlots: 1, heavyWait: .seconds(60), quickTime: .seconds(600)))
            try await store.sharedHistory.add("a.pdf", size: 3)
            let finished = Finished()
            try await store.withLocked("share_total") { own, release in
                // As many reads as the pool has connections (four).
                let reads = (0..<4).map { _ in
                    Task {
                        defer { finished.count.add(1, ordering: .relaxed) }
                        _ = try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none)
                    }
                }
                try await waitUntil("four statements wait for the lock") { try await Self.statementsWaitingForALock(own) == 4 }
                for read in reads { read.cancel() }
                release()
                try await waitUntil("the four reads ended") { finished.count.load(ordering: .relaxed) == 4 }
            }
            #expect(try await store.sharedHistory.stats(ShareQuery(), by: StatsPeriod.none).count == 1, "every connection came back")
        }
    }

    /// The statements of the database waiting for a lock.
    private static func statementsWaitingForALock(_ client: PostgresClient) async throws -> Int {
        let rows = try await client.query(
            "SELECT count(*)::bigint FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }

    private static let logger = Logger(label: "postgres-lanes-tests")
}

extension PostgresStore {
    /// The same store, reading through `lanes`.
    fileprivate func reading(through lanes: ReadLanes) -> PostgresStore {
        var store = self
        store.lanes = lanes
        return store
    }
}
