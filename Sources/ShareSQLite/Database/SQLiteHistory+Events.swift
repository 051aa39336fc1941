import Foundation
import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    public func historyEvents(after: Int64, limit: Int) async throws -> [HistoryEvent] {
        try await store.writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \(SQLiteHistoryEvents.columns) FROM history_event WHERE owner = ? AND seq > ? ORDER BY seq LIMIT ?"),
                arguments: [try ownerNumber(db), after, limit]
            ).map(SQLiteHistoryEvents.event)
        }
    }

    public func latestEvents(limit: Int) async throws -> [HistoryEvent] {
        try await store.writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(SQLiteHistoryEvents.columns) FROM history_event WHERE owner = ? ORDER BY seq DESC LIMIT ?"),
                arguments: [try ownerNumber(db), limit]
            ).map(SQLiteHistoryEvents.event)
        }
    }

    public func lastEventNumber() async throws -> Int64 {
        try await store.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(seq) FROM history_event WHERE owner = ?", arguments: [try ownerNumber(db)]) ?? 0
        }
    }

    public func feedKey(renewing: Bool) async throws -> String {
        if !renewing {
            let kept = try await store.writer.read { db in
                try String.fetchOne(db, sql: "SELECT key FROM history_feed WHERE owner = ?", arguments: [try ownerNumber(db)])
            }
            if let kept { return kept }
        }
        return try await change { db in
            let owner = try store.ownerNumbers.numbering(owner, db)
            if !renewing, let key = try String.fetchOne(db, sql: "SELECT key FROM history_feed WHERE owner = ?", arguments: [owner]) {
                return key
            }
            let key = LinkToken.generate()
            try db.execute(
                sql: "INSERT INTO history_feed (owner, key) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET key = excluded.key",
                arguments: [owner, key])
            return key
        }
    }

    public func addHook(_ draft: HookDraft, limit: Int, now: Timestamp) async throws -> Hook {
        try await change { db in
            let owner = try store.ownerNumbers.numbering(owner, db)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM hook WHERE owner = ?", arguments: [owner]) ?? 0
            guard count < limit else { throw ShareError.tooManyHooks(limit: limit) }
            let last = try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM history_event WHERE owner = ?", arguments: [owner]) ?? 0
            let id = HookSecret.newHookID()
            try db.execute(
                sql: """
                    INSERT INTO hook (id, owner, url, events, description, secret, created_at, cursor) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, owner, draft.url, draft.events.joined(separator: ","), draft.description, draft.secret, now.millisecondsSinceEpoch, last,
                ])
            var hook = try fetchHook(id: id, db)
            hook.secret = draft.secret
            return hook
        }
    }

    public func hooks() async throws -> [Hook] {
        try await store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM hook WHERE owner = ? ORDER BY created_at, id", arguments: [try ownerNumber(db)])
                .map(HookRows.hook)
        }
    }

    public func hook(id: String) async throws -> Hook {
        try await store.writer.read { db in try fetchHook(id: id, db) }
    }

    public func changeHook(id: String, _ change: HookChange) async throws -> Hook {
        try await self.change { db in
            _ = try fetchHook(id: id, db)
            try db.execute(
                sql: """
                    UPDATE hook SET url = coalesce(?1, url), events = coalesce(?2, events), description = coalesce(?3, description),
                        attempt = CASE WHEN ?4 AND NOT enabled THEN 0 ELSE attempt END,
                        next_at = CASE WHEN ?4 AND NOT enabled THEN 0 ELSE next_at END,
                        disabled_reason = CASE WHEN ?4 THEN NULL ELSE disabled_reason END,
                        enabled = coalesce(?4, enabled)
                    WHERE id = ?5
                    """,
                arguments: [change.url, change.events?.joined(separator: ","), change.description, change.enabled, id])
            return try fetchHook(id: id, db)
        }
    }

    public func deleteHook(id: String) async throws {
        try await change { db in
            try db.execute(sql: "DELETE FROM hook WHERE id = ? AND owner = ?", arguments: [id, try ownerNumber(db)])
            guard db.changesCount > 0 else { throw ShareError.hookNotFound(id: id) }
        }
    }

    public func replaceHookSecret(id: String, with secret: String, oldSigns: Timestamp) async throws -> Hook {
        try await change { db in
            _ = try fetchHook(id: id, db)
            try db.execute(
                sql: "UPDATE hook SET old_secret = secret, old_secret_until = ?, secret = ? WHERE id = ?",
                arguments: [oldSigns.millisecondsSinceEpoch, secret, id])
            var hook = try fetchHook(id: id, db)
            hook.secret = secret
            return hook
        }
    }

    public func hookDeliveries(id: String, before: Int64, limit: Int) async throws -> (deliveries: [HookDelivery], next: Int64?) {
        try await store.writer.read { db in
            _ = try fetchHook(id: id, db)
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT * FROM hook_delivery WHERE hook_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                arguments: [id, before == 0 ? Int64.max : before, limit + 1])
            return (rows.prefix(limit).map(HookRows.delivery), rows.count > limit ? rows[limit - 1]["seq"] : nil)
        }
    }

    public func resendDelivery(hook id: String, delivery: Int64) async throws {
        try await change { db in
            _ = try fetchHook(id: id, db)
            guard
                let event = try Int64.fetchOne(
                    db, sql: "SELECT event_seq FROM hook_delivery WHERE hook_id = ? AND seq = ?", arguments: [id, delivery])
            else { throw ShareError.deliveryNotFound(id: delivery) }
            try db.execute(sql: "INSERT OR IGNORE INTO hook_resend (hook_id, event_seq) VALUES (?, ?)", arguments: [id, event])
            try db.execute(
                sql: "UPDATE hook SET enabled = 1, disabled_reason = NULL, attempt = 0, next_at = 0 WHERE id = ? AND NOT enabled", arguments: [id])
        }
    }

    /// This history's hook `id`, its secret left out.
    private func fetchHook(id: String, _ db: Database) throws -> Hook {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM hook WHERE id = ? AND owner = ?", arguments: [id, try ownerNumber(db)]) else {
            throw ShareError.hookNotFound(id: id)
        }
        return HookRows.hook(row)
    }
}
