import GRDB
import GRDBSQLite
import ShareHistory
import Synchronization

/// Work allowed to SQLite, counted as it goes through its progress handler: a statement that would take more is
/// interrupted. Lets a read be tried with a budget of work, whatever it does, and given up at the point its cost
/// passes the budget. Budgets nest: the read lanes give a whole read a budget (`ReadLanes`), and the listing
/// planner's race gives each of its reads one inside it; all work counts against every budget running, and the
/// first to run out interrupts. A budget may also end when a condition turns true (the race's, once a second reader
/// has its page: `SideRead`).
///
/// Work is SQLite's virtual-machine steps plus `pageWork` for each page a statement fetches from its cache or the
/// file: a count that follows time (about 10 ns a unit on the machine measured, whether a read walks an index or
/// looks each row up in the table) yet, unlike time, comes out the same on every run and every machine.
enum WorkBudget {
    /// What fetching a page weighs, in steps: a page fetched takes 45 to 60 times a step's time reading a million
    /// records' history (`bench/planner_costs.py`, docs/planner.md); counted low, erring towards index reads.
    static let pageWork = 40

    /// Steps between two looks at the budgets.
    private static let interval: Int32 = 500

    /// The work done on one connection since its outermost budget began, and where each budget running on it
    /// runs out. Only the thread running the connection's statement touches it.
    private final class Meter: @unchecked Sendable {
        let connection: OpaquePointer
        private(set) var work = 0
        /// Each budget running, outermost first.
        var limits: [Limit] = []
        /// The connection's count of fetched pages at the last look.
        private var pages: Int32

        init(_ connection: OpaquePointer) {
            self.connection = connection
            pages = WorkBudget.fetchedPages(connection)
        }

        /// Counts the work since the last look, `steps` of them steps; true when a budget has run out.
        func look(steps: Int) -> Bool {
            let now = WorkBudget.fetchedPages(connection)
            work += steps + WorkBudget.pages(from: pages, to: now) * WorkBudget.pageWork
            pages = now
            return limits.contains(where: isOver)
        }

        func isOver(_ limit: Limit) -> Bool {
            work > limit.work || limit.ends?() == true
        }
    }

    /// Where a budget runs out: at `work`, or once `ends` says so.
    private struct Limit {
        let work: Int
        let ends: (@Sendable () -> Bool)?
    }

    /// Whether a budget runs on the connection: the read is limited, and may be cut short.
    static func isLimited(_ db: Database) -> Bool {
        guard let connection = db.sqliteConnection else { return false }
        return running.withLock { $0[UInt(bitPattern: connection)] != nil }
    }

    /// Pages fetched on a connection so far, from SQLite's cache or not: the count's lowest 31 bits, as SQLite
    /// reports it.
    static func fetchedPages(_ connection: OpaquePointer) -> Int32 {
        var hits: Int32 = 0
        var misses: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_HIT, &hits, &highwater, 0)
        sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highwater, 0)
        return (hits &+ misses) & Int32.max
    }

    /// Pages fetched between two counts of `fetchedPages`, right even when the count wrapped between them.
    static func pages(from earlier: Int32, to later: Int32) -> Int {
        Int((later &- earlier) & Int32.max)
    }

    /// The meter of each connection that runs a budget. A connection runs on one thread at a time, so only the
    /// table itself needs the lock.
    private static let running = Mutex<[UInt: Meter]>([:])

    /// What `body` returns, or nil when its statements took more than `work` in all (nil budget: no limit), or
    /// `ends` turned true (checked as often as the work is). An interrupt that is not this budget's own (an outer
    /// budget ran out, the request's client has gone, the daemon is stopping) is thrown, never read as this budget
    /// blown, which would send the read on to its next plan.
    static func run<T>(_ db: Database, work: Int?, endingWhen ends: (@Sendable () -> Bool)? = nil, _ body: () throws -> T) throws -> T? {
        guard work != nil || ends != nil, let connection = db.sqliteConnection else { return try body() }
        let key = UInt(bitPattern: connection)
        let meter = running.withLock { running in
            if let meter = running[key] { return meter }
            let meter = Meter(connection)
            running[key] = meter
            return meter
        }
        let level = meter.limits.count
        _ = meter.look(steps: 0)
        meter.limits.append(Limit(work: work.map { meter.work + $0 } ?? .max, ends: ends))
        if level == 0 {
            sqlite3_progress_handler(
                connection, interval,
                { context in
                    guard let context else { return 0 }
                    return Unmanaged<Meter>.fromOpaque(context).takeUnretainedValue().look(steps: Int(WorkBudget.interval)) ? 1 : 0
                }, Unmanaged.passUnretained(meter).toOpaque())
        }
        defer {
            meter.limits.removeLast()
            if level == 0 {
                sqlite3_progress_handler(connection, 0, nil, nil)
                _ = running.withLock { $0.removeValue(forKey: key) }
            }
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            // Blown when this budget ran out and none outside it did: an outer one's interrupt is the outer's.
            let own = meter.isOver(meter.limits[level])
            let outer = meter.limits[..<level].contains(where: meter.isOver)
            if own && !outer { return nil }
            throw error
        }
    }
}
