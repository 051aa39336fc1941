import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// The advisory locks (two-key form, first key) a history's new hooks take turns under; the second key is the
    /// history's owner number.
    static let hookLock: Int32 = 0x484B
    /// The advisory locks (two-key form, first key) each history's events are numbered under, one transaction at a
    /// time until it commits: migration 0016's trigger takes them, as does the start of each change of a history.
    static let eventLock: Int32 = 0x4556

    public func feedOwner(key: String) async throws -> String? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT CASE WHEN f.owner = 0 THEN '' ELSE u.name END FROM history_feed f LEFT JOIN share_user u ON u.id = f.owner
                WHERE f.key = \(key)
                """, logger: logger)
            for try await owner in rows.decode(String?.self) { return owner }
            return nil
        }
    }

    public func takeDueDelivery(now time: Timestamp, leaseUntil: Timestamp) async throws -> DueDelivery? {
        let now = time.millisecondsSinceEpoch
        return try await write { connection in
            try await connection.withTransaction(logger: logger) { connection in
                // Nodes skip the hooks another is taking: each hook is delivered by one node at a time.
                let due = try await connection.query(
                    """
                    SELECT h.id FROM hook h WHERE h.enabled AND h.next_at <= \(now) AND h.lease_until <= \(now)
                        AND (EXISTS (SELECT 1 FROM hook_resend r WHERE r.hook_id = h.id)
                            OR EXISTS (\(unescaped: Self.nextEventSQL)))
                    ORDER BY h.next_at LIMIT 1 FOR UPDATE SKIP LOCKED
                    """, logger: logger)
                var found: String?
                for try await id in due.decode(String.self) { found = id }
                guard let id = found else { return nil }
                let leased = try await connection.query(
                    """
                    UPDATE hook h SET lease_until = \(leaseUntil.millisecondsSinceEpoch) WHERE h.id = \(id)
                    RETURNING h.url, h.secret, h.old_secret, h.old_secret_until, h.attempt,
                        (SELECT min(event_seq) FROM hook_resend r WHERE r.hook_id = h.id), (\(unescaped: Self.nextEventSQL))
                    """, logger: logger)
                var hook: (url: String, secret: String, old: String?, until: Int64?, attempt: Int32, resend: Int64?, next: Int64?)?
                for try await row in leased.decode((String, String, String?, Int64?, Int32, Int64?, Int64?).self) { hook = row }
                guard let hook, let seq = hook.resend ?? hook.next else { return nil }
                let events = try await PostgresHistoryEvents.events(
                    connection.query("SELECT \(unescaped: PostgresHistoryEvents.columns) FROM history_event WHERE seq = \(seq)", logger: logger))
                guard let event = events.first else { return nil }
                return DueDelivery(
                    hookID: id, url: hook.url, secrets: DueDelivery.signingSecrets(hook.secret, old: hook.old, oldUntil: hook.until, now: time),
                    event: event, attempt: hook.resend == nil ? Int(hook.attempt) + 1 : 1,
                    isResend: hook.resend != nil)
            }
        }
    }

    /// The first event after hook `h`'s cursor that it asks for.
    private static let nextEventSQL = """
        SELECT e.seq FROM history_event e WHERE e.owner = h.owner AND e.seq > h.cursor
            AND (h.events = '*' OR e.action = ANY (string_to_array(h.events, ','))) ORDER BY e.seq LIMIT 1
        """

    public func recordDelivery(_ due: DueDelivery, _ outcome: DeliveryOutcome, now: Timestamp) async throws {
        _ = try await write { connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO hook_delivery (hook_id, event_seq, type, attempt, at, status, ms, error)
                    SELECT id, \(due.event.seq), \(due.event.type), \(Int32(due.attempt)), \(now.millisecondsSinceEpoch), \(Int32(outcome.status)),
                        \(Int32(clamping: outcome.milliseconds)), \(outcome.error)
                    FROM hook WHERE id = \(due.hookID)
                    """, logger: logger)
                if due.isResend {
                    try await connection.query(
                        "DELETE FROM hook_resend WHERE hook_id = \(due.hookID) AND event_seq = \(due.event.seq)", logger: logger)
                    try await connection.query("UPDATE hook SET lease_until = 0 WHERE id = \(due.hookID)", logger: logger)
                    return
                }
                switch outcome.next {
                case .delivered:
                    try await connection.query(
                        """
                        UPDATE hook SET cursor = greatest(cursor, \(due.event.seq)), attempt = 0, next_at = 0, lease_until = 0 WHERE id = \(due.hookID)
                        """, logger: logger)
                case .retry(let at):
                    try await connection.query(
                        "UPDATE hook SET attempt = attempt + 1, next_at = \(at.millisecondsSinceEpoch), lease_until = 0 WHERE id = \(due.hookID)",
                        logger: logger)
                case .disable(let reason):
                    try await connection.query(
                        """
                        UPDATE hook SET attempt = attempt + 1, enabled = false, disabled_reason = \(reason), lease_until = 0 WHERE id = \(due.hookID)
                        """, logger: logger)
                }
            }
        }
    }

    public func forgetEvents(before time: Timestamp) async throws -> Int {
        let time = time.millisecondsSinceEpoch
        return try await write { connection in
            try await connection.query("DELETE FROM hook_delivery WHERE at < \(time)", logger: logger)
            let rows = try await connection.query(
                """
                WITH forgotten AS (
                    DELETE FROM history_event e WHERE e.at < \(time)
                        AND NOT EXISTS (SELECT 1 FROM hook h WHERE h.owner = e.owner AND h.enabled AND h.cursor < e.seq)
                    RETURNING 1)
                SELECT count(*) FROM forgotten
                """, logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }
}
