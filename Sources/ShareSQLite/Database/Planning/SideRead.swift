import GRDB
import GRDBSQLite
import ShareHistory
import Synchronization

/// A second reader a listing's race may run its ordered reads on, beside the other reads on its own, when the machine
/// has room for it (`isFree`).
struct SecondReader: Sendable {
    let pool: DatabasePool
    /// Whether a read may take a second reader now: no other heavy read waits for the lane.
    let isFree: @Sendable () -> Bool
}

/// A race's ordered reads, run to their end on a second reader while the race goes on with its other reads on its
/// own, so that the page costs about what the cheaper of the two sides does, where one connection would spend
/// about as much again on the dearer one before knowing. The system's SQLite cannot open two connections on one
/// snapshot, so the second reader's page counts only if it read the race's version of the history
/// (`HistoryVersion.stored`): a change committed in between makes it give up, and the race takes its ordered reads
/// back.
final class SideRead: Sendable {
    private let planner: ListingPlanner
    private let reader: SecondReader
    /// The history's version the race reads.
    private let version: Int64

    private struct State {
        var started = false
        var connection: Connection?
        var stopped = false
        var page: [Int64] = []
        var gaveUp = false
    }

    /// The reader's SQLite connection while the read runs on it: interrupting it stops the read.
    private struct Connection: @unchecked Sendable {
        let handle: OpaquePointer
    }

    private let state = Mutex(State())
    /// Whether the page is in, read without the lock: the race looks as often as it looks at its budgets.
    private let finished = Atomic(false)

    init(_ planner: ListingPlanner, on reader: SecondReader, version: Int64) {
        self.planner = planner
        self.reader = reader
        self.version = version
    }

    /// Whether the second reader reads the ordered reads: it starts on `scans` in the first round the machine has
    /// room for it; false once it gave up.
    func reads(_ scans: [OrderedScan]) -> Bool {
        let starts = state.withLock { state in
            guard !state.started, reader.isFree() else { return false }
            state.started = true
            return true
        }
        guard starts else { return state.withLock { $0.started && !$0.gaveUp } }
        reader.pool.asyncRead { [self] result in
            guard case .success(let db) = result, let handle = db.sqliteConnection else { return end(with: nil) }
            let runs = state.withLock { state in
                if !state.stopped { state.connection = Connection(handle: handle) }
                return !state.stopped
            }
            guard runs else { return }
            end(with: try? read(scans, db))
        }
        return true
    }

    /// The page of `scans`, if the second reader sees the race's history.
    private func read(_ scans: [OrderedScan], _ db: Database) throws -> [Int64]? {
        guard try HistoryVersion.stored(db) == version else { return nil }
        return try planner.race(scans, [], db)
    }

    private func end(with page: [Int64]?) {
        state.withLock { state in
            // Cleared before the reader goes back to the pool, so that `stop` never interrupts another read.
            state.connection = nil
            state.page = page ?? []
            state.gaveUp = page == nil
        }
        if page != nil { finished.store(true, ordering: .releasing) }
    }

    /// Stops the read, wherever it is; one not started yet never starts.
    func stop() {
        state.withLock { state in
            state.stopped = true
            if let connection = state.connection { sqlite3_interrupt(connection.handle) }
        }
    }

    /// Whether the second reader has the page.
    var hasPage: Bool { finished.load(ordering: .acquiring) }

    /// The page, once `hasPage`.
    var page: [Int64] { state.withLock { $0.page } }
}
