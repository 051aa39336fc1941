import GRDB
import ShareHistory
import ShareKit

extension SQLiteStore {
    public func feedOwner(key: String) async throws -> String? {
        try await writer.read { db in
            guard let owner = try Int64.fetchOne(db, sql: "SELECT owner FROM history_feed WHERE key = ?", arguments: [key]) else { return nil }
            if owner == OwnerNumber.nobody { return "" }
            return try String.fetchOne(db, sql: "SELECT name FROM share_user WHERE id = ?", arguments: [owner])
        }
    }

    public func takeDueDelivery(now: Timestamp, leaseUntil: Timestamp) async throws -> DueDelivery? {
        // Asked every second: the one writer is taken only when a hook may be due.
        let anyDue = try await writer.read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM hook WHERE enabled AND next_at <= ?1 AND lease_until <= ?1)"),
                arguments: [now.millisecondsSinceEpoch]) ?? false
        }
        guard anyDue else { return nil }
        return try await Self.storing {
            try await writer.write { db in
                guard
                    let row = try Row.fetchOne(
                        db.cachedStatement(sql: "SELECT * FROM (\(HookSQL.due)) WHERE resend IS NOT NULL OR next_event IS NOT NULL LIMIT 1"),
                        arguments: [now.millisecondsSinceEpoch])
                else { return nil }
                let resend: Int64? = row["resend"]
                guard let event = try SQLiteHistoryEvents.event(seq: resend ?? row["next_event"], db) else { return nil }
                let id: String = row["id"]
                try db.execute(sql: "UPDATE hook SET lease_until = ? WHERE id = ?", arguments: [leaseUntil.millisecondsSinceEpoch, id])
                return DueDelivery(
                    hookID: id, url: row["url"],
                    secrets: DueDelivery.signingSecrets(row["secret"], old: row["old_secret"], oldUntil: row["old_secret_until"], now: now),
                    event: event, attempt: resend == nil ? (row["attempt"] as Int) + 1 : 1, isResend: resend != nil)
            }
        }
    }

    public func recordDelivery(_ due: DueDelivery, _ outcome: DeliveryOutcome, now: Timestamp) async throws {
        try await Self.storing {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO hook_delivery (hook_id, event_seq, type, attempt, at, status, ms, error)
                        SELECT id, ?, ?, ?, ?, ?, ?, ? FROM hook WHERE id = ?
                        """,
                    arguments: [
                        due.event.seq, due.event.type, due.attempt, now.millisecondsSinceEpoch, outcome.status, outcome.milliseconds, outcome.error,
                        due.hookID,
                    ])
                for (sql, arguments) in HookSQL.moveOn(due, outcome) { try db.execute(sql: sql, arguments: arguments) }
            }
        }
    }

    public func forgetEvents(before time: Timestamp) async throws -> Int {
        try await Self.storing {
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM hook_delivery WHERE at < ?", arguments: [time.millisecondsSinceEpoch])
                try db.execute(sql: HookSQL.forgetEvents, arguments: [time.millisecondsSinceEpoch])
                return db.changesCount
            }
        }
    }
}
