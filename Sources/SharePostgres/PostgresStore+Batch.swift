import Foundation
import PostgresNIO
import ShareKit
import ShareStore

extension PostgresStore {
    /// Applies `change` to every record of `targets` in one transaction, each with its event, as `ShareDatabase`
    /// does: the records are named in a temporary table and changed by a few statements over it.
    public func batch(_ change: BatchChange, _ targets: BatchTargets, now: Timestamp, by: String) async throws -> Int {
        try await self.change { connection in
            // Emptied at every commit; a batch that fails is rolled back, its targets with it.
            try await connection.query(
                "CREATE TEMP TABLE IF NOT EXISTS batch_target (seq bigint PRIMARY KEY) ON COMMIT DELETE ROWS", logger: logger)
            let owner = try await ownerNumber(connection)
            try await name(targets, for: change, owner: owner, connection)
            let targeted = "seq IN (SELECT seq FROM batch_target)"
            let at = now.millisecondsSinceEpoch
            switch change {
            case .move(let folder):
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, from_value, to_value, by)
                    SELECT seq, \(at), 'moved', folder, \(folder), \(by) FROM share WHERE \(unescaped: targeted) AND folder <> \(folder) ORDER BY seq
                    """, logger: logger)
                try await connection.query("UPDATE share SET folder = \(folder) WHERE \(unescaped: targeted) AND folder <> \(folder)", logger: logger)
            case .trash:
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, by)
                    SELECT seq, \(at), 'trashed', \(by) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NULL ORDER BY seq
                    """, logger: logger)
                try await connection.query("UPDATE share SET trashed_at = \(at) WHERE \(unescaped: targeted) AND trashed_at IS NULL", logger: logger)
            case .restore:
                let rows = try await connection.query(
                    "SELECT coalesce(sum(size), 0) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL", logger: logger)
                for try await bytes in rows.decode(Decimal.self) { try await refusePastQuota(adding: bytes, owner: owner, connection) }
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, by)
                    SELECT seq, \(at), 'restored', \(by) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL ORDER BY seq
                    """, logger: logger)
                try await connection.query(
                    "UPDATE share SET trashed_at = NULL WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL", logger: logger)
            case .purge:
                // The records' events and thumbnails go with them (the foreign keys cascade).
                try await connection.query("DELETE FROM share WHERE \(unescaped: targeted)", logger: logger)
            }
            return try await count("SELECT count(*) FROM batch_target", connection)
        }
    }

    /// Puts the `seq` of each record `targets` names in this history into `batch_target`, each once, as `change`
    /// finds them: a missing id is `.notFound`.
    private func name(_ targets: BatchTargets, for change: BatchChange, owner: Int64, _ connection: PostgresConnection) async throws {
        switch targets {
        case .ids(let ids):
            for id in ids {
                let (seq, _) = try await PostgresRows.fetch(
                    id: id, owner: owner, includeTrashed: change.reachesTrash, connection, logger: logger)
                try await connection.query("INSERT INTO batch_target (seq) VALUES (\(seq)) ON CONFLICT DO NOTHING", logger: logger)
            }
        case .matching(var query):
            query.owner = owner
            if change != .purge { query.trashed = change == .restore }
            var sql = BoundSQL("INSERT INTO batch_target (seq) SELECT seq FROM share WHERE ")
            try PostgresFilter.append(query, to: &sql)
            try await connection.query(sql.query, logger: logger)
        }
    }
}
