import GRDB
import GRDBSQLite
import ShareHistory
import Testing

@testable import ShareSQLite

/// A read given a budget of work: past it, the read gives up and its plan gives way to the next; interrupted for
/// another reason (the client has gone, the daemon is stopping), it stops there, and no other plan starts.
@Suite struct WorkBudgetTests {
    /// Counts to `count` in SQLite: a statement of about `count` times a few steps.
    private static let counting = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT count(*) FROM n"

    @Test func aReadPastItsBudgetGivesUp() throws {
        let queue = try DatabaseQueue()
        let within = try queue.read { db in try WorkBudget.run(db, work: 1_000_000) { try Int.fetchOne(db, sql: Self.counting, arguments: [1000]) } }
        #expect(within == 1000)
        let past = try queue.read { db in try WorkBudget.run(db, work: 10_000) { try Int.fetchOne(db, sql: Self.counting, arguments: [1_000_000]) } }
        #expect(past == nil)
    }

    /// The lanes give a whole read a budget, and the planner's race gives each of its reads one inside it.
    @Test func budgetsNestAndEachGivesUpOnlyForItself() throws {
        let queue = try DatabaseQueue()
        // The inner budget runs out first: the inner read gives up, and the outer read goes on to finish.
        let innerBlown = try queue.read { db in
            try WorkBudget.run(db, work: 10_000_000) { () -> (inner: Int??, after: Int?) in
                let inner = try WorkBudget.run(db, work: 10_000) { try Int.fetchOne(db, sql: Self.counting, arguments: [1_000_000]) }
                return (inner, try Int.fetchOne(db, sql: Self.counting, arguments: [1000]))
            }
        }
        #expect(innerBlown.map { $0.inner == nil && $0.after == 1000 } == true)
        // The outer budget runs out inside the inner one: not the inner read's failure, so no next plan starts;
        // the whole read gives up.
        var afterInner = false
        let outerBlown = try queue.read { db in
            try WorkBudget.run(db, work: 10_000) { () -> Int? in
                let inner = try WorkBudget.run(db, work: 10_000_000) { try Int.fetchOne(db, sql: Self.counting, arguments: [1_000_000]) }
                afterInner = true
                return (inner ?? nil) ?? -1
            }
        }
        #expect(outerBlown == nil && !afterInner)
        // And no budget is left behind on the connection.
        #expect(try queue.read { db in try Int.fetchOne(db, sql: Self.counting, arguments: [1_000_000]) } == 1_000_000)
    }

    @Test func anInterruptFromElsewhereIsThrownNotTakenForABlownBudget() throws {
        let queue = try DatabaseQueue()
        // What GRDB does when the task reading is cancelled, done from within the statement itself: the interrupt
        // lands while it runs, whatever the timing.
        try queue.inDatabase { db in
            nonisolated(unsafe) let connection = db.sqliteConnection
            db.add(
                function: DatabaseFunction("interrupted", argumentCount: 0, pure: false) { _ in
                    sqlite3_interrupt(connection)
                    return 1
                })
        }
        #expect(throws: DatabaseError.self) {
            _ = try queue.read { db in
                try WorkBudget.run(db, work: 1_000_000_000) {
                    try Int.fetchOne(db, sql: "SELECT interrupted() + (\(Self.counting))", arguments: [1_000_000])
                }
            }
        }
    }
}
