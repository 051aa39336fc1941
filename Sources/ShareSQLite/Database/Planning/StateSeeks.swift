import GRDB
import ShareHistory
import ShareKit

/// The link states of a listing as seeks of `share_live_by_state`, each written with the index's own expressions so
/// that SQLite reads it; or'ed together, they are also the test of a row read elsewhere.
enum StateSeeks {
    static let index = "share_live_by_state"

    /// Whether the link was cut off, and whether its downloads are used up: the index's second and third columns.
    private static let revoked: SQL = "(revoked_at IS NOT NULL)"
    private static let spent: SQL = "(max_downloads IS NOT NULL AND downloads >= max_downloads)"

    /// The conditions of one seek per part of each state at `now`, besides the owner and the index's own condition.
    static func conditions(_ states: Set<ShareState>, at now: Int64) -> [SQL] {
        let open: SQL = "\(revoked) = 0 AND \(spent) = 0"
        return ShareState.allCases.filter(states.contains).flatMap { state -> [SQL] in
            switch state {
            case .revoked: return ["\(revoked) = 1"]
            case .expired: return ["\(revoked) = 0 AND \(spent) = 1", "\(open) AND expires_at <= \(now)"]
            case .active: return ["\(open) AND expires_at IS NULL", "\(open) AND expires_at > \(now)"]
            }
        }
    }

    /// The seeks of `states` among `owner`'s live shares.
    static func seeks(_ states: Set<ShareState>, at now: Int64, owner: Int64) -> [SQLiteFilter] {
        let base = SQLiteFilter(live: true, owner: owner).adding("link_token IS NOT NULL")
        return conditions(states, at: now).map(base.adding)
    }

    /// A row's test: it opens, and its link is in one of `states` at `now`.
    static func test(_ states: Set<ShareState>, at now: Int64) -> SQL {
        let either: SQL = conditions(states, at: now).map { (condition: SQL) -> SQL in "(\(condition))" }.joined(separator: " OR ")
        return "(link_token IS NOT NULL AND (\(either)))"
    }
}
