import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func historyEvents(after: Int64, limit: Int) async throws -> [HistoryEvent] {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresHistoryEvents.events(
                connection.query(
                    """
                    SELECT \(unescaped: PostgresHistoryEvents.columns) FROM history_event WHERE owner = \(owner) AND seq > \(after)
                    ORDER BY seq LIMIT \(limit)
                    """, logger: store.logger))
        }
    }

    public func latestEvents(limit: Int) async throws -> [HistoryEvent] {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresHistoryEvents.events(
                connection.query(
                    "SELECT \(unescaped: PostgresHistoryEvents.columns) FROM history_event WHERE owner = \(owner) ORDER BY seq DESC LIMIT \(limit)",
                    logger: store.logger))
        }
    }

    public func lastEventNumber() async throws -> Int64 {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query("SELECT coalesce(max(seq), 0) FROM history_event WHERE owner = \(owner)", logger: store.logger)
            for try await last in rows.decode(Int64.self) { return last }
            return 0
        }
    }

    public func feedKey(renewing: Bool) async throws -> String {
        if !renewing {
            let kept = try await store.read { connection in
                let rows = try await connection.query(
                    "SELECT key FROM history_feed WHERE owner = \(try await ownerNumber(connection))", logger: store.logger)
                var key: String?
                for try await found in rows.decode(String.self) { key = found }
                return key
            }
            if let kept { return kept }
        }
        return try await change { connection in
            let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
            if !renewing {
                let rows = try await connection.query("SELECT key FROM history_feed WHERE owner = \(owner)", logger: store.logger)
                for try await key in rows.decode(String.self) { return key }
            }
            let key = LinkToken.generate()
            try await connection.query(
                "INSERT INTO history_feed (owner, key) VALUES (\(owner), \(key)) ON CONFLICT (owner) DO UPDATE SET key = excluded.key",
                logger: store.logger)
            return key
        }
    }

    public func addHook(_ draft: HookDraft, limit: Int, now: Timestamp) async throws -> Hook {
        try await change { connection in
            let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
            // One at a time per history, so that two racing for the last place do not both take it.
            try await connection.lockUntilTransactionEnds(PostgresStore.hookLock, owner, logger: store.logger)
            let counted = try await connection.query("SELECT count(*) FROM hook WHERE owner = \(owner)", logger: store.logger)
            for try await count in counted.decode(Int64.self) where count >= limit { throw ShareError.tooManyHooks(limit: limit) }
            let id = HookSecret.newHookID()
            try await connection.query(
                """
                INSERT INTO hook (id, owner, url, events, description, secret, created_at, cursor)
                SELECT \(id), \(owner), \(draft.url), \(draft.events.joined(separator: ",")), \(draft.description), \(draft.secret),
                    \(now.millisecondsSinceEpoch), coalesce(max(seq), 0) FROM history_event WHERE owner = \(owner)
                """, logger: store.logger)
            var hook = try await fetchHook(id: id, owner: owner, connection)
            hook.secret = draft.secret
            return hook
        }
    }

    public func hooks() async throws -> [Hook] {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresHookRows.hooks(
                connection.query(
                    "SELECT \(unescaped: PostgresHookRows.columns) FROM hook WHERE owner = \(owner) ORDER BY created_at, id", logger: store.logger))
        }
    }

    public func hook(id: String) async throws -> Hook {
        try await store.read { connection in try await fetchHook(id: id, owner: try await ownerNumber(connection), connection) }
    }

    public func changeHook(id: String, _ change: HookChange) async throws -> Hook {
        try await self.change { connection in
            let owner = try await ownerNumber(connection)
            _ = try await fetchHook(id: id, owner: owner, connection)
            try await connection.query(
                """
                UPDATE hook SET url = coalesce(\(change.url), url), events = coalesce(\(change.events?.joined(separator: ",")), events),
                    description = coalesce(\(change.description), description),
                    attempt = CASE WHEN \(change.enabled) AND NOT enabled THEN 0 ELSE attempt END,
                    next_at = CASE WHEN \(change.enabled) AND NOT enabled THEN 0 ELSE next_at END,
                    disabled_reason = CASE WHEN \(change.enabled) THEN NULL ELSE disabled_reason END,
                    enabled = coalesce(\(change.enabled), enabled)
                WHERE id = \(id)
                """, logger: store.logger)
            return try await fetchHook(id: id, owner: owner, connection)
        }
    }

    public func deleteHook(id: String) async throws {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query("DELETE FROM hook WHERE id = \(id) AND owner = \(owner) RETURNING id", logger: store.logger)
            for try await _ in rows.decode(String.self) { return }
            throw ShareError.hookNotFound(id: id)
        }
    }

    public func replaceHookSecret(id: String, with secret: String, oldSigns: Timestamp) async throws -> Hook {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            _ = try await fetchHook(id: id, owner: owner, connection)
            try await connection.query(
                "UPDATE hook SET old_secret = secret, old_secret_until = \(oldSigns.millisecondsSinceEpoch), secret = \(secret) WHERE id = \(id)",
                logger: store.logger)
            var hook = try await fetchHook(id: id, owner: owner, connection)
            hook.secret = secret
            return hook
        }
    }

    public func hookDeliveries(id: String, before: Int64, limit: Int) async throws -> (deliveries: [HookDelivery], next: Int64?) {
        try await store.read { connection in
            _ = try await fetchHook(id: id, owner: try await ownerNumber(connection), connection)
            let rows = try await connection.query(
                """
                SELECT seq, event_seq, type, attempt, at, status, ms, error FROM hook_delivery
                WHERE hook_id = \(id) AND seq < \(before == 0 ? Int64.max : before) ORDER BY seq DESC LIMIT \(limit + 1)
                """, logger: store.logger)
            var deliveries: [HookDelivery] = []
            for try await (seq, event, type, attempt, at, status, ms, error) in rows.decode(
                (Int64, Int64, String, Int32, Int64, Int32, Int32, String?).self)
            {
                deliveries.append(
                    HookDelivery(
                        id: seq, eventId: String(event), type: type, attempt: Int(attempt), at: Timestamp(millisecondsSinceEpoch: at),
                        status: Int(status), ms: Int(ms), error: error))
            }
            return (Array(deliveries.prefix(limit)), deliveries.count > limit ? deliveries[limit - 1].id : nil)
        }
    }

    public func resendDelivery(hook id: String, delivery: Int64) async throws {
        try await change { connection in
            _ = try await fetchHook(id: id, owner: try await ownerNumber(connection), connection)
            let rows = try await connection.query(
                """
                INSERT INTO hook_resend (hook_id, event_seq) SELECT hook_id, event_seq FROM hook_delivery WHERE hook_id = \(id) AND seq = \(delivery)
                ON CONFLICT DO NOTHING RETURNING event_seq
                """, logger: store.logger)
            var found = false
            for try await _ in rows.decode(Int64.self) { found = true }
            if !found {
                let known = try await connection.query(
                    "SELECT 1 FROM hook_delivery WHERE hook_id = \(id) AND seq = \(delivery)", logger: store.logger)
                for try await _ in known.decode(Int32.self) { found = true }
            }
            guard found else { throw ShareError.deliveryNotFound(id: delivery) }
            try await connection.query(
                "UPDATE hook SET enabled = true, disabled_reason = NULL, attempt = 0, next_at = 0 WHERE id = \(id) AND NOT enabled",
                logger: store.logger)
        }
    }

    /// This history's hook `id`, its secret left out.
    private func fetchHook(id: String, owner: Int64, _ connection: PostgresConnection) async throws -> Hook {
        let hooks = try await PostgresHookRows.hooks(
            connection.query(
                "SELECT \(unescaped: PostgresHookRows.columns) FROM hook WHERE id = \(id) AND owner = \(owner)", logger: store.logger))
        guard let hook = hooks.first else { throw ShareError.hookNotFound(id: id) }
        return hook
    }
}
