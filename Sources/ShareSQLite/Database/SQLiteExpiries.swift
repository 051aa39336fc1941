import GRDB
import ShareKit
import Synchronization

/// The latest expiry each history's links have passed, which its tags carry: a listing that says `active` must not
/// be answered 304 once the link's time has passed, though nothing was written. Kept per owner until the history
/// changes or its next expiry comes, so that the common tag asks the database nothing.
final class SQLiteExpiries: Sendable {
    private struct Known {
        /// The history's changes when it was read.
        let changes: Int64
        let passed: Int64?
        let next: Int64?
    }

    private let known = Mutex<[Int64: Known]>([:])

    /// The latest expiry of `owner`'s links at or before `now` (milliseconds), nil when none has passed.
    func passed(owner: Int64, changes: Int64, now: Int64, _ writer: any DatabaseWriter) async throws -> Int64? {
        if let entry = known.withLock({ $0[owner] }), entry.changes == changes, entry.next.map({ now < $0 }) ?? true { return entry.passed }
        let (passed, next) = try await writer.read { db -> (Int64?, Int64?) in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT (SELECT max(expires_at) FROM share WHERE owner = ?1 AND expires_at <= ?2),
                            (SELECT min(expires_at) FROM share WHERE owner = ?1 AND expires_at > ?2)
                        """), arguments: [owner, now])
            return (row?[0], row?[1])
        }
        known.withLock { known in
            if known.count > 10_000 { known.removeAll() }
            known[owner] = Known(changes: changes, passed: passed, next: next)
        }
        return passed
    }
}
