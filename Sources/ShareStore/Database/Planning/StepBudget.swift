import GRDB
import GRDBSQLite
import Synchronization

/// Work allowed to SQLite, counted in virtual-machine steps through its progress handler: a statement that
/// would take more is interrupted. Lets a read be tried with a budget of work, whatever it does, and given up
/// at the point its cost passes the budget. Budgets nest: the read lanes give a whole read a budget
/// (`ReadLanes`), and the listing planner's race gives each of its reads one inside it; every step counts against
/// all of them, and the first to run out interrupts.
enum StepBudget {
    /// Steps between two looks at the budget.
    private static let interval: Int32 = 500

    /// The budgets running on one connection, outermost first: looks left for each. Only the thread running the
    /// connection's statement touches them.
    private final class Budgets: @unchecked Sendable {
        var remaining: [Int] = []
    }

    /// The budgets of each connection that runs one. A connection runs on one thread at a time, so only the
    /// table itself needs the lock.
    private static let running = Mutex<[UInt: Budgets]>([:])

    /// What `body` returns, or nil when its statements took more than `steps` steps in all (nil budget: no limit).
    /// An interrupt that is not this budget's own (an outer budget ran out, the request's client has gone, the
    /// daemon is stopping) is thrown, never read as this budget blown, which would send the read on to its next plan.
    static func run<T>(_ db: Database, steps: Int?, _ body: () throws -> T) throws -> T? {
        guard let steps, let connection = db.sqliteConnection else { return try body() }
        let key = UInt(bitPattern: connection)
        let budgets = running.withLock { running in
            if let budgets = running[key] { return budgets }
            let budgets = Budgets()
            running[key] = budgets
            return budgets
        }
        let level = budgets.remaining.count
        budgets.remaining.append(max(1, steps / Int(interval)))
        if level == 0 {
            sqlite3_progress_handler(
                connection, interval,
                { context in
                    guard let context else { return 0 }
                    let budgets = Unmanaged<Budgets>.fromOpaque(context).takeUnretainedValue()
                    var blown = false
                    for index in budgets.remaining.indices {
                        budgets.remaining[index] -= 1
                        blown = blown || budgets.remaining[index] < 0
                    }
                    return blown ? 1 : 0
                }, Unmanaged.passUnretained(budgets).toOpaque())
        }
        defer {
            budgets.remaining.removeLast()
            if level == 0 {
                sqlite3_progress_handler(connection, 0, nil, nil)
                _ = running.withLock { $0.removeValue(forKey: key) }
            }
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            // Blown when this budget ran out and none outside it did: an outer one's interrupt is the outer's.
            let own = budgets.remaining[level] < 0
            let outer = budgets.remaining[..<level].contains { $0 < 0 }
            if own && !outer { return nil }
            throw error
        }
    }
}
