import Foundation
import GRDB
import ShareHistory
import ShareKit

extension SQLiteStore {
    /// Every history's records stored after `position` (a `seq`), in the order they were stored, at most `limit`,
    /// trashed or not, each with its owner, thumbnail, events, downloads and the hash of its bytes; and the position of
    /// the last (nil when none is left).
    public func copyChunk(after position: Int64, limit: Int) async throws -> (records: [CopiedRecord], last: Int64?) {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(SQLiteRow.columns), seq, coalesce((SELECT name FROM share_user WHERE id = owner), '') AS owner_name,
                        (SELECT image FROM share_thumbnail WHERE share_seq = seq) AS image, (SELECT tag FROM share_thumbnail WHERE share_seq = seq) AS tag,
                        (SELECT b.hash FROM share_blob b WHERE b.seq = share.blob) AS blob_hash
                    FROM share WHERE seq > ? ORDER BY seq LIMIT ?
                    """, arguments: [position, limit])
            guard let first = rows.first?["seq"] as Int64?, let last = rows.last?["seq"] as Int64? else { return ([], nil) }
            var events: [Int64: [ShareEvent]] = [:]
            let eventRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT share_seq, at, action, from_value, to_value, by FROM share_event
                    WHERE share_seq BETWEEN ? AND ? ORDER BY seq
                    """, arguments: [first, last])
            while let row = try eventRows.next() { events[row["share_seq"], default: []].append(SQLiteRow.event(row)) }
            var downloads: [Int64: [ShareDownload]] = [:]
            let downloadRows = try Row.fetchCursor(
                db,
                sql: "SELECT share_seq, at, address, agent, bytes, complete FROM share_download WHERE share_seq BETWEEN ? AND ? ORDER BY seq",
                arguments: [first, last])
            while let row = try downloadRows.next() { downloads[row["share_seq"], default: []].append(SQLiteRow.download(row)) }
            let records = rows.map { row in
                let seq: Int64 = row["seq"]
                return CopiedRecord(
                    owner: row["owner_name"], record: SQLiteRow.record(row, .plain),
                    thumbnail: row["image"] == nil ? nil : ThumbnailRow.thumbnail(row), events: events[seq] ?? [], downloads: downloads[seq] ?? [],
                    blob: row["blob_hash"])
            }
            return (records, last)
        }
    }

    /// The bytes named by `hash`, for a copy into another store; nil when no share holds them.
    public func storedBytes(hash: String) async throws -> (any StoredBytes)? {
        let found = try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT size, object FROM share_blob WHERE hash = ?", arguments: [hash]).map {
                ($0["size"] as Int64, $0["object"] as String?)
            }
        }
        return try found.map { try storedBytes(hash: hash, size: $0.0, object: $0.1) }
    }
}
