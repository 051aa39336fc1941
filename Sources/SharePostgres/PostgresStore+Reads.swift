import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    public func exportEveryHistory(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await exportChunk(after: position, limit: limit, includingTrash: includingTrash, of: nil, recordForm)
    }

    /// Records after `position` (a `seq`) in the order they were stored, as NDJSON lines: of `owner`'s history, or of
    /// every history, each with its `owner`, when nil.
    func exportChunk(
        after position: Int64, limit: Int, includingTrash: Bool, of owner: String?, _ recordForm: RecordForm
    ) async throws -> (lines: [UInt8], last: Int64?) {
        try await laneRead { connection in
            var sql = BoundSQL(
                """
                SELECT s.\(PostgresRows.columns.replacingOccurrences(of: ", ", with: ", s.")), s.seq, coalesce(u.name, ''), t.image
                FROM share s LEFT JOIN share_user u ON u.id = s.owner LEFT JOIN share_thumbnail t ON t.share_seq = s.seq
                WHERE s.seq >
                """)
            sql.bind(position)
            if let owner {
                sql.append(" AND s.owner = ")
                sql.bind(try await owners.number(of: owner, connection, logger: logger))
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
                let ownerName = try cells.following().text()
                record.appendJSON(form, owner: owner == nil ? ownerName : nil, thumbnailImage: try cells.following().bytes, to: &lines)
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
