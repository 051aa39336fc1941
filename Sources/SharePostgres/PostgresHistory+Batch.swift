import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    /// Applies `change` to every record of `targets` in one transaction, each with its event, as `SQLiteStore`
    /// does: the records are named in a temporary table and changed by a few statements over it.
    ///
    /// The targets are locked before anything is read of them for the change: statements under READ COMMITTED each
    /// see the commits made before they start, so a rename, trash or restore of the same records committed between
    /// the events' statement and the update's would give events the update did not make. Locked, they change only
    /// here until the commit; one that another request put out of the batch's reach meanwhile (trashed before a
    /// move) is not found, as its own request would find it.
    public func batch(_ change: BatchChange, _ targets: BatchTargets, now: Timestamp, by: String) async throws -> Int {
        try await self.change { connection in
            // Emptied at every commit; a batch that fails is rolled back, its targets with it.
            try await connection.query(
                "CREATE TEMP TABLE IF NOT EXISTS batch_target (seq bigint PRIMARY KEY) ON COMMIT DELETE ROWS", logger: store.logger)
            let owner = try await ownerNumber(connection)
            let named = try await name(targets, for: change, owner: owner, connection)
            try await lockTargets(of: change, named: named, connection)
            let targeted = "seq IN (SELECT seq FROM batch_target)"
            let at = now.millisecondsSinceEpoch
            switch change {
            case .move(let folder):
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, from_value, to_value, by)
                    SELECT seq, \(at), 'moved', folder, \(folder), \(by) FROM share WHERE \(unescaped: targeted) AND folder <> \(folder) ORDER BY seq
                    """, logger: store.logger)
                try await connection.query(
                    "UPDATE share SET folder = \(folder) WHERE \(unescaped: targeted) AND folder <> \(folder)", logger: store.logger)
            case .trash:
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, by)
                    SELECT seq, \(at), 'trashed', \(by) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NULL ORDER BY seq
                    """, logger: store.logger)
                try await connection.query(
                    "UPDATE share SET trashed_at = \(at) WHERE \(unescaped: targeted) AND trashed_at IS NULL", logger: store.logger)
            case .restore:
                let rows = try await connection.query(
                    "SELECT coalesce(sum(size), 0) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL AND blob IS NULL",
                    logger: store.logger)
                for try await bytes in rows.decode(Decimal.self) { try await refusePastQuota(adding: bytes, owner: owner, connection) }
                try await connection.query(
                    """
                    INSERT INTO share_event (share_seq, at, action, by)
                    SELECT seq, \(at), 'restored', \(by) FROM share WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL ORDER BY seq
                    """, logger: store.logger)
                try await connection.query(
                    "UPDATE share SET trashed_at = NULL WHERE \(unescaped: targeted) AND trashed_at IS NOT NULL", logger: store.logger)
            case .purge:
                // The records' events and thumbnails go with them (the foreign keys cascade).
                try await connection.query("DELETE FROM share WHERE \(unescaped: targeted)", logger: store.logger)
            }
            return try await store.count("SELECT count(*) FROM batch_target", connection)
        }
    }

    /// Puts the `seq` of each record `targets` names in this history into `batch_target`, each once, as `change`
    /// finds them: a missing id is `.notFound`. Returns the ids named, by `seq` (none for a filter).
    private func name(
        _ targets: BatchTargets, for change: BatchChange, owner: Int64, _ connection: PostgresConnection
    ) async throws -> [Int64: String] {
        switch targets {
        case .ids(let ids):
            var named: [Int64: String] = [:]
            for id in ids {
                let (seq, _) = try await PostgresRows.fetch(
                    id: id, owner: owner, includeTrashed: change.reachesTrash, connection, logger: store.logger)
                try await connection.query("INSERT INTO batch_target (seq) VALUES (\(seq)) ON CONFLICT DO NOTHING", logger: store.logger)
                named[seq] = id
            }
            return named
        case .matching(var query):
            if change != .purge { query.trashed = change == .restore }
            var sql = BoundSQL("WITH named AS (INSERT INTO batch_target (seq) SELECT seq FROM share WHERE ")
            try PostgresFilter.append(query, owner: owner, to: &sql)
            sql.append(" LIMIT \(BatchTargets.maxRecords + 1) RETURNING 1) SELECT count(*) FROM named")
            guard try await store.count(sql.query, connection) <= BatchTargets.maxRecords else { throw BatchTargets.tooManyMatches }
            return [:]
        }
    }

    /// Locks the targets' rows (in `seq` order, as every batch takes them) and keeps those still in the change's reach:
    /// an id named that is not is `.notFound`; a record a filter named that is not is left out.
    private func lockTargets(of change: BatchChange, named: [Int64: String], _ connection: PostgresConnection) async throws {
        try await connection.run(
            "SELECT seq FROM share WHERE seq IN (SELECT seq FROM batch_target) ORDER BY seq FOR UPDATE", logger: store.logger)
        let reach = change.reachesTrash ? "" : " AND s.trashed_at IS NULL"
        let gone = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    DELETE FROM batch_target t WHERE NOT EXISTS (SELECT 1 FROM share s WHERE s.seq = t.seq\(reach)) RETURNING seq
                    """), logger: store.logger)
        for try await seq in gone.decode(Int64.self) {
            if let id = named[seq] { throw ShareError.notFound(id: id) }
        }
    }
}
