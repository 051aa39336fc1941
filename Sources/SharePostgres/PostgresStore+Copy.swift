import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// What `copyIn` wrote, as the database counts it once it has.
public struct PostgresCopiedCounts: Sendable, Equatable {
    public var records = 0
    public var events = 0
    public var thumbnails = 0
    public var downloads = 0
    /// Distinct stored bytes (blobs), each copied once however many records share them.
    public var files = 0
    public var hooks = 0
    public var feedKeys = 0
    public var requests = 0

    public init(
        records: Int = 0, events: Int = 0, thumbnails: Int = 0, downloads: Int = 0, files: Int = 0, hooks: Int = 0, feedKeys: Int = 0,
        requests: Int = 0
    ) {
        self.records = records
        self.events = events
        self.thumbnails = thumbnails
        self.downloads = downloads
        self.files = files
        self.hooks = hooks
        self.feedKeys = feedKeys
        self.requests = requests
    }
}

extension PostgresStore {
    /// Whether the database holds no record and no user: what `shared migrate` copies into.
    public func isEmpty() async throws -> Bool {
        try await read { connection in
            try await count("SELECT (SELECT count(*) FROM share) + (SELECT count(*) FROM share_user)", connection) == 0
        }
    }

    /// Copies the records `next` gives, chunk by chunk until it gives nil, with their owners, thumbnails, events and
    /// bytes (read from `bytes` by hash, once each, checked against it), each history's in the order they come, and
    /// the webhooks and feed keys of `eventsOut`, in one transaction: all of them or none, the running totals made from
    /// them at the end. Returns what the database holds then.
    public func copyIn(
        _ next: @Sendable @escaping () async throws -> [CopiedRecord]?, bytes: @Sendable @escaping (String) async throws -> any StoredBytes,
        eventsOut: CopiedEventsOut = CopiedEventsOut()
    ) async throws -> PostgresCopiedCounts {
        let copied = try await changing { connection in
            try await switchTotalsTriggers("DISABLE", connection)
            // The copied events happened before: none of them goes out to hooks again (migration 0016).
            try await connection.run("SELECT set_config('share.copying', 'on', true)", logger: logger)
            var owners: [String: Int64] = ["": OwnerNumber.nobody]
            var blobs: [String: Int64] = [:]
            while let chunk = try await next() {
                for name in Set(chunk.map(\.owner)) where owners[name] == nil {
                    owners[name] = try await self.owners.numbering(name, connection, logger: logger)
                }
                for hash in Set(chunk.compactMap(\.blob)) where blobs[hash] == nil {
                    blobs[hash] = try await copyBlob(try await bytes(hash), connection)
                }
                let seqs = try await insertRecords(chunk, owners: owners, blobs: blobs, connection)
                try await insertThumbnails(chunk, seqs: seqs, connection)
                try await insertEvents(chunk, seqs: seqs, connection)
                try await insertDownloads(chunk, seqs: seqs, connection)
            }
            try await insertEventsOut(eventsOut, owners: &owners, connection)
            try await connection.run("SELECT share_rebuild_totals()", logger: logger)
            try await switchTotalsTriggers("ENABLE", connection)
            let counts = PostgresCopiedCounts(
                records: try await count("SELECT count(*) FROM share", connection),
                events: try await count("SELECT count(*) FROM share_event", connection),
                thumbnails: try await count("SELECT count(*) FROM share_thumbnail", connection),
                downloads: try await count("SELECT count(*) FROM share_download", connection),
                files: try await count("SELECT count(*) FROM share_blob", connection),
                hooks: try await count("SELECT count(*) FROM hook", connection),
                feedKeys: try await count("SELECT count(*) FROM history_feed", connection),
                requests: try await count("SELECT count(*) FROM share_request", connection))
            return (counts, Array(owners.values))
        }
        await analyzeAfterLoading(copied.records)
        return copied
    }

    /// Writes `bytes` as a blob of chunks and returns its `seq`; throws unless what was read has the size and hash
    /// the bytes are named by. Bytes in a bucket stay there: the blob names their object.
    private func copyBlob(_ bytes: any StoredBytes, _ connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query(
            "INSERT INTO share_blob (hash, size, object) VALUES (\(bytes.hash), \(bytes.size), \(bytes.object)) RETURNING seq", logger: logger)
        var inserted: Int64?
        for try await seq in rows.decode(Int64.self) { inserted = seq }
        guard let seq = inserted else { throw StoreError.files(action: "copy a share's bytes", reason: "no blob was made for \(bytes.hash)") }
        guard bytes.object == nil else { return seq }
        var start: Int64 = 0
        let copied = try await bytes.copy(inPiecesOf: UploadReceiver.chunkBytes) { piece in
            try await connection.query(
                "INSERT INTO share_blob_chunk (blob, start, bytes) VALUES (\(seq), \(start), \(piece))", logger: logger)
            start += Int64(piece.readableBytes)
        }
        guard copied.hash == bytes.hash, copied.bytes == bytes.size else {
            throw StoreError.files(
                action: "copy a share's bytes",
                reason: "the file of \(bytes.hash) holds \(copied.bytes) of its \(bytes.size) bytes, whose hash is \(copied.hash)")
        }
        return seq
    }

    /// Turns off (`DISABLE`) or on (`ENABLE`) the triggers that keep the running totals as records are inserted,
    /// within the transaction: a copy makes the totals once, at its end.
    private func switchTotalsTriggers(_ state: String, _ connection: PostgresConnection) async throws {
        try await connection.query(
            PostgresQuery(unsafeSQL: "ALTER TABLE share \(state) TRIGGER share_totals_insert, \(state) TRIGGER share_time_totals_insert"),
            logger: logger)
    }

    /// Inserts the chunk's records in its order; each one's `seq`, in the same order.
    private func insertRecords(
        _ chunk: [CopiedRecord], owners: [String: Int64], blobs: [String: Int64], _ connection: PostgresConnection
    ) async throws -> [Int64] {
        var sql = BoundSQL(
            """
            INSERT INTO share (owner, \(PostgresRows.newColumns), thumbnail, blob, files)
            SELECT r.owner, \(PostgresRows.arrayValues), r.pictured, NULLIF(r.blob, \(PostgresRows.absent)), NULLIF(r.files, '')
            FROM unnest(
            """)
        try sql.bind(array: chunk.map { owners[$0.owner] ?? OwnerNumber.nobody })
        try PostgresRows.bindArrays(of: chunk.map(\.record), to: &sql)
        sql.append(", ")
        try sql.bind(array: chunk.map { $0.thumbnail != nil })
        sql.append(", ")
        try sql.bind(array: chunk.map { $0.blob.flatMap { blobs[$0] } ?? PostgresRows.absent })
        sql.append(", ")
        try sql.bind(array: chunk.map { $0.record.files.map(BundleFiles.json) ?? "" })
        sql.append(
            """
            ) WITH ORDINALITY AS r (owner, \(PostgresRows.arrayColumns), pictured, blob, files, n)
            ORDER BY n RETURNING seq
            """)
        var seqs: [Int64] = []
        for try await seq in try await connection.query(sql.query, logger: logger).decode(Int64.self) { seqs.append(seq) }
        // Identities are drawn in the order the rows are inserted, which is the chunk's; the returned order is not promised.
        return seqs.sorted()
    }

    private func insertThumbnails(_ chunk: [CopiedRecord], seqs: [Int64], _ connection: PostgresConnection) async throws {
        let pictured = zip(seqs, chunk).compactMap { seq, copied in copied.thumbnail.map { (seq, $0) } }
        guard !pictured.isEmpty else { return }
        var sql = BoundSQL("INSERT INTO share_thumbnail (share_seq, tag, image) SELECT * FROM unnest(")
        try sql.bind(array: pictured.map(\.0))
        sql.append(", ")
        try sql.bind(array: pictured.map(\.1.tag))
        sql.append(", ")
        try sql.bind(array: pictured.map { ByteBuffer(bytes: $0.1.image) })
        sql.append(")")
        try await connection.query(sql.query, logger: logger)
    }

    private func insertDownloads(_ chunk: [CopiedRecord], seqs: [Int64], _ connection: PostgresConnection) async throws {
        let downloads = zip(seqs, chunk).flatMap { seq, copied in copied.downloads.map { (seq, $0) } }
        guard !downloads.isEmpty else { return }
        var sql = BoundSQL(
            """
            INSERT INTO share_download (share_seq, at, address, agent, bytes, complete)
            SELECT share_seq, at, address, agent, NULLIF(bytes, \(PostgresRows.absent)), complete FROM unnest(
            """)
        try sql.bind(array: downloads.map(\.0))
        sql.append(", ")
        try sql.bind(array: downloads.map(\.1.at.millisecondsSinceEpoch))
        for texts in [downloads.map(\.1.address), downloads.map(\.1.agent)] {
            sql.append(", ")
            try sql.bind(array: texts)
        }
        sql.append(", ")
        try sql.bind(array: downloads.map { $0.1.bytes ?? PostgresRows.absent })
        sql.append(", ")
        try sql.bind(array: downloads.map(\.1.complete))
        sql.append(") WITH ORDINALITY AS d (share_seq, at, address, agent, bytes, complete, n) ORDER BY n")
        try await connection.query(sql.query, logger: logger)
    }

    private func insertEvents(_ chunk: [CopiedRecord], seqs: [Int64], _ connection: PostgresConnection) async throws {
        let events = zip(seqs, chunk).flatMap { seq, copied in copied.events.map { (seq, $0) } }
        guard !events.isEmpty else { return }
        var sql = BoundSQL(
            """
            INSERT INTO share_event (share_seq, at, action, from_value, to_value, by, downloads)
            SELECT share_seq, at, action, CASE WHEN has_from THEN from_value END, CASE WHEN has_to THEN to_value END, by,
                NULLIF(downloads, \(PostgresRows.absent)) FROM unnest(
            """)
        try sql.bind(array: events.map(\.0))
        sql.append(", ")
        try sql.bind(array: events.map(\.1.at.millisecondsSinceEpoch))
        for texts in [events.map(\.1.action.rawValue), events.map { $0.1.from ?? "" }, events.map { $0.1.to ?? "" }, events.map(\.1.by)] {
            sql.append(", ")
            try sql.bind(array: texts)
        }
        sql.append(", ")
        try sql.bind(array: events.map { $0.1.from != nil })
        sql.append(", ")
        try sql.bind(array: events.map { $0.1.to != nil })
        sql.append(", ")
        try sql.bind(array: events.map { $0.1.downloads ?? PostgresRows.absent })
        sql.append(") WITH ORDINALITY AS e (share_seq, at, action, from_value, to_value, by, has_from, has_to, downloads, n) ORDER BY n")
        try await connection.query(sql.query, logger: logger)
    }
}
