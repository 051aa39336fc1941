import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    public func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?) {
        try await read { connection in
            let owner = try await ownerNumber(connection)
            let (seq, _) = try await PostgresRows.fetch(id: id, owner: owner, includeTrashed: true, connection, logger: logger)
            let page = try await PostgresEvents.page(seq: seq, after: after, limit: limit, connection, logger: logger)
            let shown = page.prefix(limit)
            return (shown.map(\.event), page.count > limit ? shown.last?.seq : nil)
        }
    }

    public func share(id: String, includeTrashed: Bool) async throws -> ShareRecord {
        try await read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresRows.fetch(
                id: id, owner: owner, includeTrashed: includeTrashed, form: recordForm.judgedNow(), connection, logger: logger
            ).record
        }
    }

    public func listShares(_ query: ShareQuery) async throws -> SharePage {
        try await laneRead { connection in try await page(query, connection) }
    }

    /// One lease for both: a listing's tag and page cost a node as much in crossings to the pool as in reading.
    public func taggedPage(_ query: ShareQuery, at now: Timestamp) async throws -> (tag: String, page: SharePage) {
        try await laneRead { connection in
            let tag = try await historyTag(at: now, connection)
            return (tag, try await page(query, connection))
        }
    }

    private func page(_ query: ShareQuery, _ connection: PostgresConnection) async throws -> SharePage {
        try await PostgresListing(query: query, owner: try await ownerNumber(connection), form: recordForm.judgedNow()).fetch(
            connection, prepared, logger: logger)
    }

    public func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats {
        try await laneRead { connection in try await stats(query, by: period, connection) }
    }

    public func taggedStats(_ query: ShareQuery, by period: StatsPeriod?, at now: Timestamp) async throws -> (tag: String, stats: ShareStats) {
        try await laneRead { connection in
            let tag = try await historyTag(at: now, connection)
            return (tag, try await stats(query, by: period, connection))
        }
    }

    private func stats(_ query: ShareQuery, by period: StatsPeriod?, _ connection: PostgresConnection) async throws -> ShareStats {
        try await PostgresStatistics(query: query, owner: try await ownerNumber(connection)).fetch(by: period, connection, prepared, logger: logger)
    }

    public func exportChunk(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, everyone: false)
    }

    public func exportEveryHistory(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, everyone: true)
    }

    /// Records after `position` (a `seq`) in the order they were stored, as NDJSON lines; every history's, each with
    /// its `owner`, when `everyone`.
    private func exportChunk(
        after position: Int64, limit: Int, includingTrash: Bool, everyone: Bool
    ) async throws -> (lines: [UInt8], last: Int64?) {
        try await laneRead { connection in
            var sql = BoundSQL(
                """
                SELECT s.\(PostgresRows.columns.replacingOccurrences(of: ", ", with: ", s.")), s.seq, coalesce(u.name, ''), t.image
                FROM share s LEFT JOIN share_user u ON u.id = s.owner LEFT JOIN share_thumbnail t ON t.share_seq = s.seq
                WHERE s.seq >
                """)
            sql.bind(position)
            if !everyone {
                sql.append(" AND s.owner = ")
                sql.bind(try await ownerNumber(connection))
            }
            if !includingTrash { sql.append(" AND s.trashed_at IS NULL") }
            sql.append(" ORDER BY s.seq LIMIT ")
            sql.bind(limit)
            var lines: [UInt8] = []
            var last: Int64?
            let rows = try await connection.query(sql.query, logger: logger)
            let form = recordForm.judgedNow()
            for try await row in rows {
                var cells = row.makeIterator()
                let record = try PostgresRows.Columns(&cells)
                last = try cells.following().integer()
                let owner = try cells.following().text()
                record.appendJSON(form, owner: everyone ? owner : nil, thumbnailImage: try cells.following().bytes, to: &lines)
                lines.append(UInt8(ascii: "\n"))
            }
            return (lines, last)
        }
    }

    public func recordCounts() async throws -> (live: Int, trashed: Int) {
        try await read { connection in
            var counts = (live: 0, trashed: 0)
            let rows = try await connection.query("SELECT trashed, sum(count)::bigint FROM share_owner_total GROUP BY trashed", logger: logger)
            for try await (trashed, count) in rows.decode((Bool, Int).self) {
                if trashed { counts.trashed = count } else { counts.live = count }
            }
            return counts
        }
    }

    public func usage() async throws -> ShareStats.Total {
        try await read { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "SELECT count, bytes FROM share_owner_total WHERE owner = \(owner) AND NOT trashed", logger: logger)
            for try await (count, bytes) in rows.decode((Int, Decimal).self) { return ShareStats.Total(count: count, bytes: bytes) }
            return ShareStats.Total()
        }
    }

    public func quotaUsage() async throws -> QuotaUsage {
        try await read { connection in try await quotaUsage(owner: try await ownerNumber(connection), connection) }
    }

    public func filesBytes() async throws -> Int64 {
        try await read { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "SELECT coalesce(sum(size), 0)::bigint FROM share WHERE owner = \(owner) AND trashed_at IS NULL AND blob IS NOT NULL", logger: logger)
            for try await bytes in rows.decode(Int64.self) { return bytes }
            return 0
        }
    }

    public func folders(in parent: String) async throws -> [FolderUsage] {
        try await read { connection in
            let owner = try await ownerNumber(connection)
            let prefix = FolderPath.descendantPrefix(of: parent)
            let rows = try await connection.query(
                """
                SELECT folder, count, bytes FROM share_folder_total
                WHERE owner = \(owner) AND folder > \(prefix) AND folder < \(FolderPath.descendantsEnd(of: parent))
                """, logger: logger)
            var totals: [(folder: String, total: ShareStats.Total)] = []
            for try await (folder, count, bytes) in rows.decode((String, Int, Decimal).self) {
                totals.append((folder, ShareStats.Total(count: count, bytes: bytes)))
            }
            return FolderUsage.subfolders(of: parent, adding: totals)
        }
    }

    public func users() async throws -> [UserUsage] {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT u.name, t.count, t.bytes FROM share_owner_total t JOIN share_user u ON u.id = t.owner
                WHERE NOT t.trashed ORDER BY u.name COLLATE "C"
                """, logger: logger)
            var users: [UserUsage] = []
            for try await (name, count, bytes) in rows.decode((String, Int, Decimal).self) {
                users.append(UserUsage(user: name, count: count, bytes: bytes))
            }
            return users
        }
    }
}
