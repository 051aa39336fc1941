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
                    SELECT share_seq, at, action, from_value, to_value, by, downloads FROM share_event
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

    /// Every history's webhooks (with their secrets), feed keys and file requests, and how many events enabled hooks had
    /// still to send.
    public func eventsOutToCopy() async throws -> CopiedEventsOut {
        try await writer.read { db in
            let ownerName = "coalesce((SELECT name FROM share_user WHERE id = owner), '') AS owner_name"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT h.*, \(ownerName),
                        CASE WHEN h.enabled THEN (SELECT count(*) FROM history_event e WHERE e.owner = h.owner AND e.seq > h.cursor
                            AND (h.events = '*' OR instr(',' || h.events || ',', ',' || e.action || ',') > 0)) ELSE 0 END AS unsent
                    FROM hook h ORDER BY h.created_at, h.id
                    """)
            var copied = CopiedEventsOut()
            for row in rows {
                copied.hooks.append(
                    CopiedHook(
                        owner: row["owner_name"], hook: HookRows.hook(row), secret: row["secret"], oldSecret: row["old_secret"],
                        oldSecretUntil: (row["old_secret_until"] as Int64?).map(Timestamp.init(millisecondsSinceEpoch:))))
                copied.unsent += row["unsent"] as Int
            }
            for row in try Row.fetchAll(db, sql: "SELECT \(ownerName), key FROM history_feed") {
                copied.feedKeys[row["owner_name"]] = row["key"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT *, \(ownerName) FROM share_request ORDER BY created_at, id") {
                copied.requests.append((row["owner_name"], RequestRows.request(row, at: .now())))
            }
            return copied
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
