import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// Writes the copied webhooks, feed keys and file requests within the copy's transaction, numbering owners not met
    /// yet. Each hook starts after its history's last event: the copied events happened before it.
    func insertEventsOut(_ copied: CopiedEventsOut, owners: inout [String: Int64], _ connection: PostgresConnection) async throws {
        for name in Set(copied.hooks.map(\.owner)).union(copied.feedKeys.keys).union(copied.requests.map(\.owner)) where owners[name] == nil {
            owners[name] = try await self.owners.numbering(name, connection, logger: logger)
        }
        for copy in copied.hooks {
            let hook = copy.hook
            let owner = owners[copy.owner] ?? OwnerNumber.nobody
            try await connection.query(
                """
                INSERT INTO hook (id, owner, url, events, description, secret, old_secret, old_secret_until, enabled, disabled_reason,
                    created_at, cursor)
                SELECT \(hook.id), \(owner), \(hook.url), \(hook.events.joined(separator: ",")), \(hook.description), \(copy.secret),
                    \(copy.oldSecret), \(copy.oldSecretUntil?.millisecondsSinceEpoch), \(hook.enabled), \(hook.disabledReason),
                    \(hook.createdAt.millisecondsSinceEpoch), coalesce(max(seq), 0) FROM history_event WHERE owner = \(owner)
                """, logger: logger)
        }
        for (name, key) in copied.feedKeys {
            try await connection.query(
                "INSERT INTO history_feed (owner, key) VALUES (\(owners[name] ?? OwnerNumber.nobody), \(key))", logger: logger)
        }
        for (name, request) in copied.requests {
            try await connection.query(
                """
                INSERT INTO share_request (
                    id, owner, token, title, folder, max_files, max_bytes, expires_at, code, created_at, closed_at, received)
                VALUES (\(request.id), \(owners[name] ?? OwnerNumber.nobody), \(request.token), \(request.title), \(request.folder),
                    \(request.maxFiles), \(request.maxBytes), \(request.expiresAt?.millisecondsSinceEpoch), \(request.code),
                    \(request.createdAt.millisecondsSinceEpoch), \(request.closedAt?.millisecondsSinceEpoch), \(request.received))
                """, logger: logger)
        }
    }
}
