import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import Synchronization

extension PostgresHistory {
    public func beginImport(by: String) async throws -> any ShareImport {
        PostgresImport(history: self, key: ShareID.generate() + ShareID.generate(), by: by)
    }

    /// Stages a batch in one statement, its records at positions from `firstPosition` on (the order they join the
    /// history in). A record whose id is taken, in the history or earlier in the import, is skipped and reported by
    /// its line; a generated id found taken is drawn again.
    func stageImport(
        _ batch: [(line: Int, share: NewShare)], key: String, firstPosition: Int, now: Timestamp = .now()
    ) async throws -> [ImportReport.Problem] {
        var pending = batch.map { (line: $0.line, share: $0.share) }
        var problems: [ImportReport.Problem] = []
        for _ in 0..<8 where !pending.isEmpty {
            let records = pending.map { $0.share.record(at: now) }
            let entries = zip(pending, records).map { ($0.line, $0.share.thumbnail, $1) }
            var staged = try await store.write { connection in
                try await insertStaged(entries, key: key, firstPosition: firstPosition, now: now, connection)
            }
            var again: [(line: Int, share: NewShare)] = []
            // The first record of the batch with a staged id is the one staged (a line may hold several records).
            for (entry, record) in zip(pending, records) where staged.remove(PostgresRows.idKey(record.id)) == nil {
                if entry.share.id == nil {
                    again.append(entry)
                } else {
                    problems.append(ImportReport.Problem.idTaken(line: entry.line, id: record.id))
                }
            }
            pending = again
        }
        guard pending.isEmpty else { throw StoreError.noFreeID }
        return problems.sorted { $0.line < $1.line }
    }

    /// Inserts the records into the import's rows, but those whose id is taken (in the history, earlier in the import,
    /// or earlier in `entries`); the id keys it staged.
    private func insertStaged(
        _ entries: [(line: Int, thumbnail: Thumbnail?, record: ShareRecord)], key: String, firstPosition: Int, now: Timestamp,
        _ connection: PostgresConnection
    ) async throws -> Set<String> {
        var sql = BoundSQL(
            """
            INSERT INTO share_import (import, line, \(PostgresRows.newColumns), thumbnail_tag, thumbnail, started_at, position)
            """)
        sql.append(" SELECT ")
        sql.bind(key)
        sql.append(", r.line, \(PostgresRows.arrayValues),")
        sql.append(" CASE WHEN r.pictured THEN r.tag END, CASE WHEN r.pictured THEN r.image END, ")
        sql.bind(now.millisecondsSinceEpoch)
        sql.append(", r.n + ")
        sql.bind(Int64(firstPosition))
        sql.append(" FROM unnest(")
        try sql.bind(array: entries.map { Int64($0.line) })
        try PostgresRows.bindArrays(of: entries.map(\.record), to: &sql)
        sql.append(", ")
        try sql.bind(array: entries.map { $0.thumbnail != nil })
        sql.append(", ")
        try sql.bind(array: entries.map { $0.thumbnail?.tag ?? "" })
        sql.append(", ")
        try sql.bind(array: entries.map { ByteBuffer(bytes: $0.thumbnail?.image ?? []) })
        sql.append(
            """
            ) WITH ORDINALITY AS r (line, \(PostgresRows.arrayColumns), pictured, tag, image, n)
            WHERE NOT EXISTS (SELECT 1 FROM share WHERE share.id_key = r.id_key)
            ORDER BY r.n
            ON CONFLICT (import, id_key) DO NOTHING RETURNING id_key
            """)
        var staged: Set<String> = []
        for try await key in try await connection.query(sql.query, logger: store.logger).decode(String.self) { staged.insert(key) }
        return staged
    }

    /// Moves an import's staged records into the history, in the order they came, and takes out of the staging table
    /// (answering their lines and ids) those whose id was taken meanwhile. `NOT EXISTS`, not `NOT IN`: PostgreSQL
    /// compares a `NOT IN` list too large to hash with every staged row in turn.
    static func storingImport(key: String, owner: Int64) -> PostgresQuery {
        """
        WITH stored AS (
            INSERT INTO share (owner, \(unescaped: PostgresRows.newColumns), thumbnail)
            SELECT \(owner), \(unescaped: PostgresRows.newColumns), thumbnail IS NOT NULL
            FROM share_import WHERE import = \(key) ORDER BY position
            ON CONFLICT (id_key) DO NOTHING RETURNING id_key
        )
        DELETE FROM share_import AS staged
        WHERE import = \(key) AND NOT EXISTS (SELECT FROM stored WHERE stored.id_key = staged.id_key)
        RETURNING line, id
        """
    }

    /// Ends an import of `staged` records: they join the history in the order they came, all at once, with their
    /// events and thumbnails, unless they would pass the quota, or the staging table holds fewer (the database lost
    /// them). Reports those whose id was taken since they were staged.
    func finishImport(key: String, staged: Int, by: String, now: Timestamp = .now()) async throws -> FinishedImport {
        try await change { connection in
            let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
            var problems: [ImportReport.Problem] = []
            let taken = try await connection.query(
                """
                DELETE FROM share_import AS staged WHERE import = \(key) AND EXISTS (SELECT 1 FROM share WHERE share.id_key = staged.id_key)
                RETURNING line, id
                """, logger: store.logger)
            for try await (line, id) in taken.decode((Int, String).self) { problems.append(ImportReport.Problem.idTaken(line: line, id: id)) }
            let live = try await connection.query(
                "SELECT coalesce(sum(size), 0) FROM share_import WHERE import = \(key) AND trashed_at IS NULL", logger: store.logger)
            for try await bytes in live.decode(Decimal.self) { try await refusePastQuota(adding: bytes, owner: owner, connection) }
            let present = try await connection.query("SELECT count(*) FROM share_import WHERE import = \(key)", logger: store.logger)
            var waiting = 0
            for try await count in present.decode(Int.self) { waiting = count }
            guard waiting == staged - problems.count else { throw FinishedImport.stagingLost(staged: staged - problems.count, stored: waiting) }
            // An id another node's import or create takes meanwhile is reported like one taken before; its staged row
            // goes, so that nothing below joins it with the other's record.
            let late = try await connection.query(Self.storingImport(key: key, owner: owner), logger: store.logger)
            var stored = waiting
            for try await (line, id) in late.decode((Int, String).self) {
                problems.append(ImportReport.Problem.idTaken(line: line, id: id))
                stored -= 1
            }
            let joined = "FROM share_import AS staged JOIN share ON share.id_key = staged.id_key WHERE staged.import = "
            try await connection.query(
                """
                INSERT INTO share_thumbnail (share_seq, tag, image) SELECT share.seq, staged.thumbnail_tag, staged.thumbnail
                \(unescaped: joined)\(key) AND staged.thumbnail IS NOT NULL
                """, logger: store.logger)
            try await connection.query(
                """
                INSERT INTO share_event (share_seq, at, action, by)
                SELECT share.seq, \(now.millisecondsSinceEpoch), 'imported', \(by) \(unescaped: joined)\(key) ORDER BY share.seq
                """, logger: store.logger)
            try await connection.query(
                """
                INSERT INTO share_event (share_seq, at, action, by)
                SELECT share.seq, share.trashed_at, 'trashed', \(by) \(unescaped: joined)\(key) AND share.trashed_at IS NOT NULL ORDER BY share.seq
                """, logger: store.logger)
            try await connection.query("DELETE FROM share_import WHERE import = \(key)", logger: store.logger)
            return FinishedImport(stored: stored, problems: problems.sorted { $0.line < $1.line })
        }
    }
}
