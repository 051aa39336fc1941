import GRDB
import ShareHistory
import ShareKit

/// The statements of webhook deliveries on SQLite.
enum HookSQL {
    /// Every enabled hook due at `?1` that no node holds, with the event to send it: a resend asked for, else the
    /// first event after its cursor that it asks for.
    static let due = """
        SELECT h.*, (SELECT min(event_seq) FROM hook_resend r WHERE r.hook_id = h.id) AS resend,
            (SELECT e.seq FROM history_event e WHERE e.owner = h.owner AND e.seq > h.cursor
                AND (h.events = '*' OR instr(',' || h.events || ',', ',' || e.action || ',') > 0) ORDER BY e.seq LIMIT 1) AS next_event
        FROM hook h WHERE h.enabled AND h.next_at <= ?1 AND h.lease_until <= ?1
        """

    /// The events before `?1` that no enabled hook of their history has still to send; never the latest, whose number
    /// SQLite would otherwise give again.
    static let forgetEvents = """
        DELETE FROM history_event WHERE at < ?1 AND seq < (SELECT max(seq) FROM history_event) AND NOT EXISTS (
            SELECT 1 FROM hook h WHERE h.owner = history_event.owner AND h.enabled AND h.cursor < history_event.seq)
        """

    /// How the hook moves on after an attempt of `due`, ending the node's lease: the statements and their arguments.
    static func moveOn(_ due: DueDelivery, _ outcome: DeliveryOutcome) -> [(String, StatementArguments)] {
        if due.isResend {
            return [
                ("DELETE FROM hook_resend WHERE hook_id = ? AND event_seq = ?", [due.hookID, due.event.seq]),
                ("UPDATE hook SET lease_until = 0 WHERE id = ?", [due.hookID]),
            ]
        }
        switch outcome.next {
        case .delivered:
            return [("UPDATE hook SET cursor = max(cursor, ?), attempt = 0, next_at = 0, lease_until = 0 WHERE id = ?", [due.event.seq, due.hookID])]
        case .retry(let at):
            return [("UPDATE hook SET attempt = attempt + 1, next_at = ?, lease_until = 0 WHERE id = ?", [at.millisecondsSinceEpoch, due.hookID])]
        case .disable(let reason):
            return [("UPDATE hook SET attempt = attempt + 1, enabled = 0, disabled_reason = ?, lease_until = 0 WHERE id = ?", [reason, due.hookID])]
        }
    }
}
