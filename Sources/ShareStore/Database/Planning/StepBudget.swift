import GRDB
import GRDBSQLite

/// Work allowed to SQLite, counted in virtual-machine steps through its progress handler: a statement that
/// would take more is interrupted. Lets a read be tried with a budget of work, whatever it does, and given up
/// at the point its cost passes the budget.
enum StepBudget {
    /// Steps between two looks at the budget.
    private static let interval: Int32 = 500

    /// What `body` returns, or nil when its statements took more than `steps` steps in all (nil budget: no limit).
    /// An interrupt that is not the budget's own (the request's client has gone, the daemon is stopping) is
    /// thrown, never read as a blown budget that would send the read on to its next plan.
    static func run<T>(_ db: Database, steps: Int?, _ body: () throws -> T) throws -> T? {
        guard let steps else { return try body() }
        var remaining = max(1, steps / Int(interval))
        let connection = db.sqliteConnection
        return try withUnsafeMutablePointer(to: &remaining) { pointer in
            sqlite3_progress_handler(
                connection, interval,
                { context in
                    guard let remaining = context?.assumingMemoryBound(to: Int.self) else { return 0 }
                    remaining.pointee -= 1
                    return remaining.pointee < 0 ? 1 : 0
                }, pointer)
            defer { sqlite3_progress_handler(connection, 0, nil, nil) }
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && pointer.pointee < 0 {
                return nil
            }
        }
    }
}
