import Foundation
import GRDB
import ShareHistory
import ShareKit

extension SQLiteStore {
    public func openLink(token: String) async throws -> OpenedLink? {
        // Sendable values out of the read, so that it runs on the reader's queue, not this task's thread.
        let found = try await writer.read { [recordForm] db -> (share: ShareRecord, hash: String?, size: Int64?, object: String?)? in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(SQLiteRow.columns), (SELECT hash FROM share_blob WHERE seq = share.blob) AS blob_hash,
                            (SELECT size FROM share_blob WHERE seq = share.blob) AS blob_size,
                            (SELECT object FROM share_blob WHERE seq = share.blob) AS blob_object
                        FROM share WHERE link_token = ? AND trashed_at IS NULL
                        """), arguments: [token])
            var form = recordForm.judgedNow()
            form.showsCodes = true
            return row.map { (SQLiteRow.record($0, form), $0["blob_hash"], $0["blob_size"], $0["blob_object"]) }
        }
        guard let found else { return nil }
        let bytes = try found.hash.map { hash in try storedBytes(hash: hash, size: found.size ?? 0, object: found.object) }
        return OpenedLink(share: found.share, bytes: bytes)
    }

    /// The bytes of the blob named by `hash`: its object in the bucket, else its file beside the database.
    func storedBytes(hash: String, size: Int64, object: String?) throws -> any StoredBytes {
        guard let object else { return SQLiteBlob(path: files.blob(hash), hash: hash, size: size) }
        return try bucket.required(to: "read a share's bytes").bytes(of: object, size: size, hash: hash)
    }

    public func linkedThumbnail(token: String) async throws -> Thumbnail? {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT t.image, t.tag FROM share s JOIN share_thumbnail t ON t.share_seq = s.seq
                        WHERE s.link_token = ? AND s.trashed_at IS NULL
                        """), arguments: [token])
            return row.map(ThumbnailRow.thumbnail)
        }
    }

    public func countDownload(token: String, _ download: ShareDownload) async throws -> Int64? {
        try await changing { db in
            // SQLite runs one writer at a time: a download racing for the last one allowed finds it taken.
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT seq, owner, size, max_downloads FROM share
                            WHERE link_token = ? AND trashed_at IS NULL AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
                                AND (max_downloads IS NULL OR downloads < max_downloads)
                            """), arguments: [token, download.at.millisecondsSinceEpoch])
            else { return (nil, []) }
            let (seq, owner): (Int64, Int64) = (row["seq"], row["owner"])
            if let maxDownloads = row["max_downloads"] as Int64? {
                let sum = try db.cachedStatement(sql: "SELECT coalesce(sum(bytes), 0) FROM share_download WHERE share_seq = ?")
                let sent = try Int64.fetchOne(sum, arguments: [seq]) ?? 0
                guard DownloadAllowance.allows(asking: download.bytes ?? 0, sentBefore: sent, size: row["size"], maxDownloads: maxDownloads) else {
                    try db.cachedStatement(sql: "UPDATE share SET downloads = max_downloads WHERE seq = ?").execute(arguments: [seq])
                    return (nil, [owner])
                }
            }
            if download.complete {
                try db.cachedStatement(sql: "UPDATE share SET downloads = downloads + 1 WHERE seq = ?").execute(arguments: [seq])
            }
            let lease = download.bytes.map { _ in DownloadLease.until(download.at).millisecondsSinceEpoch }
            try db.cachedStatement(
                sql: "INSERT INTO share_download (share_seq, at, address, agent, bytes, complete, sending_until) VALUES (?, ?, ?, ?, ?, ?, ?)"
            )
            .execute(
                arguments: [seq, download.at.millisecondsSinceEpoch, download.address, download.agent, download.bytes, download.complete, lease])
            let entry = db.lastInsertedRowID
            // Nothing to send (a redirect): counted for good now; bytes to send count once the last one is sent.
            if download.complete, download.bytes == nil { try SQLiteEvents.recordDownloaded(entry: entry, at: download.at, db) }
            return (entry, download.complete ? [owner] : [])
        }
    }

    public func keepSending(_ entry: Int64, until: Timestamp) async throws {
        try await changing { db in
            try db.cachedStatement(sql: "UPDATE share_download SET sending_until = ? WHERE seq = ? AND sending_until IS NOT NULL")
                .execute(arguments: [until.millisecondsSinceEpoch, entry])
            return ((), [])
        }
    }

    public func endDownload(_ entry: Int64, sent: Int64) async throws {
        try await changing { db in
            let whole = try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT complete AND bytes <= ? FROM share_download WHERE seq = ? AND sending_until IS NOT NULL"),
                arguments: [sent, entry])
            if whole == true { try SQLiteEvents.recordDownloaded(entry: entry, at: .now(), db) }
            // Only a sending still under its lease: one the sweep gave back was given back once.
            let counted = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE share SET downloads = downloads - 1 WHERE downloads > 0 AND seq = (
                            SELECT share_seq FROM share_download WHERE seq = ? AND complete AND sending_until IS NOT NULL AND bytes > ?)
                        RETURNING owner
                        """), arguments: [entry, sent])
            try db.cachedStatement(
                sql: """
                    UPDATE share_download SET complete = complete AND bytes <= ?, bytes = min(bytes, ?), sending_until = NULL
                    WHERE seq = ? AND sending_until IS NOT NULL
                    """
            ).execute(arguments: [sent, sent, entry])
            return ((), counted.map { [$0["owner"]] } ?? [])
        }
    }

    public func giveBackStoppedDownloads(now: Timestamp) async throws -> Int {
        try await changing { db in
            // A share may have several stopped at once (one node killed amid many downloads of it).
            let owners = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE share SET downloads = max(0, downloads - (
                        SELECT count(*) FROM share_download d WHERE d.share_seq = share.seq AND d.sending_until < ?1 AND d.complete))
                    WHERE seq IN (SELECT share_seq FROM share_download WHERE sending_until < ?1 AND complete) RETURNING owner
                    """, arguments: [now.millisecondsSinceEpoch])
            try db.execute(
                sql: "UPDATE share_download SET complete = 0, bytes = NULL, sending_until = NULL WHERE sending_until < ?",
                arguments: [now.millisecondsSinceEpoch])
            return (db.changesCount, Set(owners))
        }
    }

    public func noteExpired(token: String, at now: Timestamp) async throws {
        try await changing { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT seq, owner FROM share WHERE link_token = ? AND (
                            SELECT action FROM share_event WHERE share_seq = share.seq AND action IN (\(RecordChange.expiryMarksSQL))
                            ORDER BY seq DESC LIMIT 1) IS NOT 'expired'
                        """), arguments: [token])
            guard let row else { return ((), []) }
            try db.cachedStatement(sql: "INSERT INTO share_event (share_seq, at, action, by) VALUES (?, ?, 'expired', 'link')")
                .execute(arguments: [row["seq"] as Int64, now.millisecondsSinceEpoch])
            return ((), [row["owner"]])
        }
    }
}
