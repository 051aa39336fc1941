import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// The advisory locks (two-key form, first key) changes of one history take turns under while they check its
    /// quota; the second key is the history's owner number.
    static let quotaLock: Int32 = 0x5155

    func quotaUsage(owner: Int64, _ connection: PostgresConnection) async throws -> QuotaUsage {
        let rows = try await connection.query(
            """
            SELECT (SELECT coalesce(sum(bytes), 0) FROM share_owner_total WHERE owner = \(owner) AND NOT trashed),
                (SELECT coalesce(sum(size), 0)::bigint FROM share WHERE owner = \(owner) AND trashed_at IS NOT NULL AND blob IS NOT NULL),
                (SELECT coalesce(sum(length), 0)::bigint FROM share_upload WHERE owner = \(owner))
            """, logger: logger)
        for try await (live, trashedFiles, uploading) in rows.decode((Decimal, Int64, Int64).self) {
            return QuotaUsage(live: live, trashedFiles: trashedFiles, uploading: uploading)
        }
        return QuotaUsage(live: 0, trashedFiles: 0, uploading: 0)
    }

    /// The advisory lock (one-key form) the nodes' trash retention takes turns under.
    static let trashRetentionLock: Int64 = 0x5348_4152_455F_5452

    /// Purges old trash, unless another node is purging it right now (then 0: that node's run does it).
    public func purgeTrash(trashedBefore time: Timestamp) async throws -> Int {
        try await changing { connection in
            let locked = try await connection.query("SELECT pg_try_advisory_xact_lock(\(Self.trashRetentionLock))", logger: logger)
            for try await taken in locked.decode(Bool.self) where !taken { return (0, []) }
            var owners: [Int64] = []
            let purged = try await connection.query(
                "DELETE FROM share WHERE trashed_at < \(time.millisecondsSinceEpoch) RETURNING owner", logger: logger)
            for try await owner in purged.decode(Int64.self) { owners.append(owner) }
            return (owners.count, Array(Set(owners)))
        }
    }

    public func assignUnowned(to user: String) async throws -> Int {
        try await changing { connection in
            let owner = try await owners.numbering(user, connection, logger: logger)
            let given = try await count(
                """
                WITH given AS (UPDATE share SET owner = \(owner) WHERE owner = \(OwnerNumber.nobody) AND seq > 0 RETURNING 1)
                SELECT count(*) FROM given
                """,
                connection)
            return (given, [owner, OwnerNumber.nobody])
        }
    }

    /// The one number `query` answers with.
    func count(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> Int {
        for try await count in try await connection.query(query, logger: logger).decode(Int.self) { return count }
        return 0
    }
}
