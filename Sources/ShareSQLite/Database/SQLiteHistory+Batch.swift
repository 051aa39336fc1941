import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    /// Applies `change` to every record of `targets` in one transaction, each with its event, as its one-record
    /// request would: all of them, or none when one id is not found (`.notFound` naming it) or a restore would pass
    /// the quota. Returns how many records it acted on.
    ///
    /// The records are named by their `seq` in a temporary table and changed by a few statements over it, so that
    /// a batch over half a million records by filter holds none of them in memory.
    public func batch(
        _ change: BatchChange, _ targets: BatchTargets, now: Timestamp, by: String
    ) async throws -> Int {
        try await self.change { db in
            // A batch that fails is rolled back, its targets with it; one that succeeds empties the table itself.
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS batch_target (seq INTEGER PRIMARY KEY)")
            try name(targets, for: change, db)
            let targeted = "seq IN (SELECT seq FROM temp.batch_target)"
            let at = now.millisecondsSinceEpoch
            switch change {
            case .move(let folder):
                try db.execute(
                    sql: """
                        INSERT INTO share_event (share_seq, at, action, from_value, to_value, by)
                            SELECT seq, ?, 'moved', folder, ?, ? FROM share WHERE \(targeted) AND folder IS NOT ? ORDER BY seq;
                        UPDATE share SET folder = ? WHERE \(targeted) AND folder IS NOT ?;
                        """, arguments: [at, folder, by, folder, folder, folder])
            case .trash:
                try db.execute(
                    sql: """
                        INSERT INTO share_event (share_seq, at, action, by)
                            SELECT seq, ?, 'trashed', ? FROM share WHERE \(targeted) AND trashed_at IS NULL ORDER BY seq;
                        UPDATE share SET trashed_at = ? WHERE \(targeted) AND trashed_at IS NULL;
                        """, arguments: [at, by, at])
            case .restore:
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT count(*), sum(size >> 32), sum(size & 4294967295) FROM share
                        WHERE \(targeted) AND trashed_at IS NOT NULL AND blob IS NULL
                        """)
                try refusePastQuota(adding: Sums(count: row?[0] ?? 0, high: row?[1] ?? 0, low: row?[2] ?? 0), db)
                try db.execute(
                    sql: """
                        INSERT INTO share_event (share_seq, at, action, by)
                            SELECT seq, ?, 'restored', ? FROM share WHERE \(targeted) AND trashed_at IS NOT NULL ORDER BY seq;
                        UPDATE share SET trashed_at = NULL WHERE \(targeted) AND trashed_at IS NOT NULL;
                        """, arguments: [at, by])
            case .purge:
                // The records' events and thumbnails go with them (the foreign keys cascade).
                try db.execute(sql: "DELETE FROM share WHERE \(targeted)")
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.batch_target") ?? 0
            try db.execute(sql: "DELETE FROM temp.batch_target")
            return count
        }
    }

    /// Puts the `seq` of each record `targets` names in this history into `temp.batch_target`, each once, as
    /// `change` finds them: a missing id is `.notFound`.
    private func name(_ targets: BatchTargets, for change: BatchChange, _ db: Database) throws {
        let owner = try ownerNumber(db)
        switch targets {
        case .ids(let ids):
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.batch_target (seq) VALUES (?)")
            for id in ids {
                try insert.execute(arguments: [try SQLiteRow.seq(id: id, owner: owner, includeTrashed: change.reachesTrash, db)])
            }
        case .matching(var query):
            if change != .purge { query.trashed = change == .restore }
            let filter = SQLiteFilter(
                query, owner: owner, name: try NameCondition(everyMatchOf: query, owner: owner, counts: store.trigramCounts, db))
            try db.execute(
                literal: "INSERT INTO temp.batch_target (seq) SELECT seq FROM share WHERE \(filter.sql) LIMIT \(BatchTargets.maxRecords + 1)")
            guard db.changesCount <= BatchTargets.maxRecords else { throw BatchTargets.tooManyMatches }
        }
    }
}
