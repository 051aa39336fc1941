import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    public func openLink(token: String) async throws -> OpenedLink? {
        var form = recordForm.judgedNow()
        form.showsCodes = true
        return try await read { [form] connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: PostgresRows.columns), blob, (SELECT hash FROM share_blob WHERE seq = share.blob),
                    (SELECT size FROM share_blob WHERE seq = share.blob), (SELECT object FROM share_blob WHERE seq = share.blob)
                FROM share WHERE link_token = \(token) AND trashed_at IS NULL
                """, logger: logger)
            for try await row in rows {
                var cells = row.makeIterator()
                let share = try PostgresRows.Columns(&cells).record(form)
                let (seq, hash, size, object) = (
                    try cells.following().optionalInteger(), try cells.following().optionalText(), try cells.following().optionalInteger(),
                    try cells.following().optionalText()
                )
                let bytes = try seq.map { seq in
                    try storedBytes(
                        blob: seq, hash: hash.map { String(buffer: $0) } ?? "", size: size ?? 0, object: object.map { String(buffer: $0) })
                }
                return OpenedLink(share: share, bytes: bytes)
            }
            return nil
        }
    }

    public func linkedThumbnail(token: String) async throws -> Thumbnail? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT t.image, t.tag FROM share s JOIN share_thumbnail t ON t.share_seq = s.seq
                WHERE s.link_token = \(token) AND s.trashed_at IS NULL
                """, logger: logger)
            for try await (image, tag) in rows.decode((ByteBuffer, String).self) { return Thumbnail(image: Array(buffer: image), tag: tag) }
            return nil
        }
    }

    public func countDownload(token: String, _ download: ShareDownload) async throws -> Int64? {
        try await changing { [logger] connection in
            // The row's lock makes a download racing for the last one allowed wait, then find the limit reached.
            let shares = try await connection.query(
                """
                SELECT seq, owner, size, max_downloads FROM share
                WHERE link_token = \(token) AND trashed_at IS NULL AND revoked_at IS NULL
                    AND (expires_at IS NULL OR expires_at > \(download.at.millisecondsSinceEpoch))
                    AND (max_downloads IS NULL OR downloads < max_downloads)
                FOR UPDATE
                """, logger: logger)
            var found: (seq: Int64, owner: Int64, size: Int64, maxDownloads: Int64?)?
            for try await share in shares.decode((Int64, Int64, Int64, Int64?).self) { found = share }
            guard let share = found else { return (nil, []) }
            if let maxDownloads = share.maxDownloads {
                let sums = try await connection.query(
                    "SELECT coalesce(sum(bytes), 0)::bigint FROM share_download WHERE share_seq = \(share.seq)", logger: logger)
                var sent: Int64 = 0
                for try await total in sums.decode(Int64.self) { sent = total }
                guard DownloadAllowance.allows(asking: download.bytes ?? 0, sentBefore: sent, size: share.size, maxDownloads: maxDownloads)
                else {
                    try await connection.query("UPDATE share SET downloads = max_downloads WHERE seq = \(share.seq)", logger: logger)
                    return (nil, [share.owner])
                }
            }
            let logged = try await connection.query(
                """
                WITH counted AS (
                    UPDATE share SET downloads = downloads + 1 WHERE seq = \(share.seq) AND \(download.complete)
                )
                INSERT INTO share_download (share_seq, at, address, agent, bytes, complete, sending_until)
                VALUES (
                    \(share.seq), \(download.at.millisecondsSinceEpoch), \(download.address), \(download.agent), \(download.bytes),
                    \(download.complete), \(download.bytes.map { _ in DownloadLease.until(download.at).millisecondsSinceEpoch })
                )
                RETURNING seq
                """, logger: logger)
            var entry: Int64?
            for try await seq in logged.decode(Int64.self) { entry = seq }
            guard let entry else { return (nil, []) }
            // Nothing to send (a redirect): counted for good now; bytes to send count once the last one is sent.
            if download.complete, download.bytes == nil {
                try await PostgresEvents.recordDownloaded(entry: entry, at: download.at, connection, logger: logger)
            }
            return (entry, download.complete ? [share.owner] : [])
        }
    }

    public func keepSending(_ entry: Int64, until: Timestamp) async throws {
        try await changing { connection in
            try await connection.query(
                "UPDATE share_download SET sending_until = \(until.millisecondsSinceEpoch) WHERE seq = \(entry) AND sending_until IS NOT NULL",
                logger: logger)
            return ((), [])
        }
    }

    public func endDownload(_ entry: Int64, sent: Int64) async throws {
        try await changing { connection in
            let whole = try await connection.query(
                """
                SELECT complete AND bytes <= \(sent) FROM share_download WHERE seq = \(entry) AND sending_until IS NOT NULL FOR UPDATE
                """, logger: logger)
            var sentWhole = false
            for try await flag in whole.decode(Bool?.self) { sentWhole = flag == true }
            if sentWhole { try await PostgresEvents.recordDownloaded(entry: entry, at: .now(), connection, logger: logger) }
            // Only a sending still under its lease: one the sweep gave back was given back once.
            let rows = try await connection.query(
                """
                WITH ended AS (
                    SELECT seq, share_seq, complete AND bytes > \(sent) AS taken_back FROM share_download
                    WHERE seq = \(entry) AND sending_until IS NOT NULL FOR UPDATE
                ), noted AS (
                    UPDATE share_download d SET complete = d.complete AND d.bytes <= \(sent), bytes = least(d.bytes, \(sent)), sending_until = NULL
                    FROM ended WHERE d.seq = ended.seq
                )
                UPDATE share SET downloads = downloads - 1
                WHERE downloads > 0 AND seq = (SELECT share_seq FROM ended WHERE taken_back) RETURNING owner
                """, logger: logger)
            for try await owner in rows.decode(Int64.self) { return ((), [owner]) }
            return ((), [])
        }
    }

    public func giveBackStoppedDownloads(now: Timestamp) async throws -> Int {
        try await changing { connection in
            let rows = try await connection.query(
                """
                WITH stopped AS (
                    SELECT seq, share_seq, complete FROM share_download WHERE sending_until < \(now.millisecondsSinceEpoch) FOR UPDATE SKIP LOCKED
                ), noted AS (
                    UPDATE share_download d SET complete = false, bytes = NULL, sending_until = NULL FROM stopped WHERE d.seq = stopped.seq
                ), counted AS (
                    SELECT share_seq, count(*) AS downloads FROM stopped WHERE complete GROUP BY share_seq
                ), given AS (
                    UPDATE share s SET downloads = greatest(s.downloads - counted.downloads, 0) FROM counted WHERE s.seq = counted.share_seq
                    RETURNING s.owner
                )
                SELECT (SELECT count(*) FROM stopped)::bigint, (SELECT array_agg(DISTINCT owner) FROM given)
                """, logger: logger)
            for try await (count, owners) in rows.decode((Int64, [Int64]?).self) { return (Int(count), owners ?? []) }
            return (0, [])
        }
    }

    public func noteExpired(token: String, at now: Timestamp) async throws {
        try await changing { connection in
            let rows = try await connection.query(
                """
                WITH refused AS (
                    SELECT seq, owner FROM share WHERE link_token = \(token) AND (
                        SELECT action FROM share_event WHERE share_seq = share.seq AND action IN (\(unescaped: RecordChange.expiryMarksSQL))
                        ORDER BY seq DESC LIMIT 1) IS DISTINCT FROM 'expired'
                    FOR UPDATE
                ), noted AS (
                    INSERT INTO share_event (share_seq, at, action, by) SELECT seq, \(now.millisecondsSinceEpoch), 'expired', 'link' FROM refused
                )
                SELECT owner FROM refused
                """, logger: logger)
            for try await owner in rows.decode(Int64.self) { return ((), [owner]) }
            return ((), [])
        }
    }
}

extension PostgresStore {
    /// The bytes of blob `blob`: its object in the bucket, else its chunks in the database.
    func storedBytes(blob: Int64, hash: String, size: Int64, object: String?) throws -> any StoredBytes {
        guard let object else { return PostgresBlob(store: self, seq: blob, hash: hash, size: size) }
        return try bucket.required(to: "read a share's bytes").bytes(of: object, size: size, hash: hash)
    }
}
