import Foundation
import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func startUpload(_ share: NewShare, now: Timestamp) async throws -> UploadStatus {
        let id = LinkToken.generate()
        let object = store.bucket.map { _ in BucketUpload.key(of: id) }
        var multipart: String?
        // An empty file has no parts: it is put whole when it finishes.
        if let bucket = store.bucket, let object, share.size > 0 { multipart = try await bucket.startUpload(object) }
        do {
            try await insertUpload(id, share, object: object, multipart: multipart, now: now)
        } catch {
            if let object, let multipart { try? await store.bucket?.abortUpload(object, upload: multipart) }
            throw error
        }
        return UploadStatus(id: id, length: share.size, offset: 0, expiresAt: UploadStatus.expiry(touchedAt: now))
    }

    private func insertUpload(_ id: String, _ share: NewShare, object: String?, multipart: String?, now: Timestamp) async throws {
        // Not a change of the history (nothing shows until the upload's last byte), but it may number a new user.
        try await store.owners.whileChanging {
            try await store.write { connection in
                try await connection.withTransaction(logger: store.logger) { connection in
                    let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
                    try await refusePastQuota(adding: Decimal(share.size), owner: owner, connection)
                    let counted = try await connection.query(
                        "SELECT count(*)::bigint FROM share_upload WHERE owner = \(owner)", logger: store.logger)
                    for try await inProgress in counted.decode(Int64.self) where inProgress >= UploadStatus.maxInProgress {
                        throw ShareError.tooManyUploads(limit: UploadStatus.maxInProgress)
                    }
                    if let request = share.request { try await holdPlace(in: request, size: share.size, owner: owner, now: now, connection) }
                    let link = share.link
                    try await connection.query(
                        """
                        WITH blob AS (INSERT INTO share_blob (size, object) VALUES (\(share.size), \(object)) RETURNING seq)
                        INSERT INTO share_upload (
                            id, owner, length, blob, name, folder, expires_at, max_downloads, code, sender, message, touched_at, object,
                            multipart, files, request)
                        SELECT \(id), \(owner), \(share.size), seq, \(share.name), \(share.folder), \(link.expiresAt?.millisecondsSinceEpoch),
                            \(link.maxDownloads), \(link.code), \(link.sender), \(link.message), \(now.millisecondsSinceEpoch), \(object),
                            \(multipart), \(share.files.map(BundleFiles.json)), \(share.request) FROM blob
                        """, logger: store.logger)
                }
            }
        }
    }

    public func upload(id: String) async throws -> UploadStatus {
        let pending = try await pendingUpload(id)
        var status = UploadStatus(
            id: id, length: pending.share.size, offset: pending.received, expiresAt: UploadStatus.expiry(touchedAt: pending.touched))
        status.request = pending.share.request
        return status
    }

    public func finishCutOffUpload(id: String, now: Timestamp, by: String) async throws -> UploadStatus {
        let pending = try await pendingUpload(id)
        let expiresAt = UploadStatus.expiry(touchedAt: pending.touched)
        guard pending.received == pending.share.size else {
            return UploadStatus(id: id, length: pending.share.size, offset: pending.received, expiresAt: expiresAt)
        }
        let hash: String
        if pending.object != nil {
            hash = try await BucketUploads.complete(id, bucket: try bucket(), records: self, digests: store.digests)
        } else {
            let blob = PostgresBlob(store: store, seq: pending.blob, hash: "", size: pending.share.size)
            hash = try await store.digests.hash(of: id, upTo: pending.received, reading: blob).hex()
        }
        let record = try await finishUpload(id, pending, hash: hash, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: pending.share.size, offset: pending.share.size, expiresAt: expiresAt, share: record)
    }

    public func appendToUpload<Body: AsyncSequence>(
        id: String, at offset: Int64, _ body: Body, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer {
        let pending = try await pendingUpload(id)
        guard offset == pending.received else { throw ShareError.uploadOffset(held: pending.received) }
        if pending.object != nil { return try await appendInBucket(id, pending, body, now: now, by: by) }
        let blob = PostgresBlob(store: store, seq: pending.blob, hash: "", size: pending.share.size)
        var receiver = UploadReceiver(
            length: pending.share.size, offset: offset, hash: try await store.digests.hash(of: id, upTo: offset, reading: blob))
        do {
            try await receiver.receive(body) { chunk, at in try await appendChunk(chunk, at: at, to: id, now: now) }
        } catch {
            store.digests.keep(id, receiver.hash, at: receiver.offset)
            throw error
        }
        guard receiver.isComplete else {
            store.digests.keep(id, receiver.hash, at: receiver.offset)
            return UploadStatus(id: id, length: pending.share.size, offset: receiver.offset, expiresAt: UploadStatus.expiry(touchedAt: now))
        }
        let record = try await finishUpload(id, pending, hash: receiver.hash.hex(), now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(
            id: id, length: pending.share.size, offset: pending.share.size, expiresAt: UploadStatus.expiry(touchedAt: now), share: record)
    }

    public func abandonUpload(id: String) async throws {
        let pending = try await pendingUpload(id)
        try await store.write { connection in
            try await connection.withTransaction(logger: store.logger) { connection in
                try await connection.query(
                    """
                    WITH dropped AS (DELETE FROM share_upload WHERE id = \(id) RETURNING object, multipart)
                    INSERT INTO share_object_freed (object, multipart, freed_at)
                    SELECT object, multipart, \(Timestamp.now().millisecondsSinceEpoch) FROM dropped WHERE multipart IS NOT NULL
                    ON CONFLICT DO NOTHING
                    """, logger: store.logger)
                try await connection.query("DELETE FROM share_blob WHERE seq = \(pending.blob) AND hash IS NULL", logger: store.logger)
            }
        }
        store.digests.forget(id)
        if pending.object != nil { _ = try? await store.releaseFreedObjects() }
    }

    public func storedBytes(id: String, includeTrashed: Bool) async throws -> (any StoredBytes)? {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let (seq, _) = try await PostgresRows.fetch(id: id, owner: owner, includeTrashed: includeTrashed, connection, logger: store.logger)
            let rows = try await connection.query(
                "SELECT b.seq, b.hash, b.size, b.object FROM share s JOIN share_blob b ON b.seq = s.blob WHERE s.seq = \(seq)",
                logger: store.logger)
            for try await (blob, hash, size, object) in rows.decode((Int64, String, Int64, String?).self) {
                return try store.storedBytes(blob: blob, hash: hash, size: size, object: object)
            }
            return nil
        }
    }

    /// An upload of this history in progress: the share it becomes, its blob, the bytes it holds, when it last got some,
    /// and the object it becomes in the bucket (nil: its chunks are in the database).
    struct PendingUpload: Sendable {
        let share: NewShare
        let blob: Int64
        let received: Int64
        let touched: Timestamp
        let object: String?
    }

    func pendingUpload(_ id: String) async throws -> PendingUpload {
        typealias Row = (Int64, String, String, Int64?, Int64?, String?, Int64, Int64, Int64, String?, String?, String?, String?, String?)
        let found = try await store.read { connection -> Row? in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                """
                SELECT length, name, folder, expires_at, max_downloads, code, blob, received, touched_at, sender, message, object, files,
                    request
                FROM share_upload WHERE id = \(id) AND owner = \(owner)
                """, logger: store.logger)
            for try await row in rows.decode(Row.self) { return row }
            return nil
        }
        guard let (length, name, folder, expiresAt, maxDownloads, code, blob, received, touched, sender, message, object, files, request) = found
        else {
            throw ShareError.uploadNotFound(id: id)
        }
        var share = try NewShare(id: nil, name: name, folder: folder, createdAt: nil, size: length)
        share.link = NewLink(
            expiresAt: expiresAt.map(Timestamp.init(millisecondsSinceEpoch:)), maxDownloads: maxDownloads, code: code, sender: sender,
            message: message)
        share.link.stored = true
        share.files = files.flatMap(BundleFiles.files(json:))
        share.arrives(through: request)
        return PendingUpload(share: share, blob: blob, received: received, touched: Timestamp(millisecondsSinceEpoch: touched), object: object)
    }

    /// Stores one chunk of an upload in a transaction of its own, if the upload holds exactly the bytes before it:
    /// a request appending to the same upload through another node at the same time finds its offset taken.
    private func appendChunk(_ chunk: ByteBuffer, at start: Int64, to id: String, now: Timestamp) async throws {
        let end = start + Int64(chunk.readableBytes)
        try await store.write { connection in
            try await connection.withTransaction(logger: store.logger) { connection in
                let rows = try await connection.query(
                    """
                    UPDATE share_upload SET received = \(end), touched_at = \(now.millisecondsSinceEpoch)
                    WHERE id = \(id) AND received = \(start) RETURNING blob
                    """, logger: store.logger)
                var blob: Int64?
                for try await seq in rows.decode(Int64.self) { blob = seq }
                guard let blob else { throw ShareError.uploadOffset(held: try await received(id, connection)) }
                try await connection.query(
                    "INSERT INTO share_blob_chunk (blob, start, bytes) VALUES (\(blob), \(start), \(chunk))", logger: store.logger)
            }
        }
    }

    func received(_ id: String, _ connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query("SELECT received FROM share_upload WHERE id = \(id)", logger: store.logger)
        for try await received in rows.decode(Int64.self) { return received }
        throw ShareError.uploadNotFound(id: id)
    }

    /// Makes the finished upload its share: the record, its event and its blob (named by its hash, or dropped for
    /// the same bytes kept already) in one transaction.
    func finishUpload(_ id: String, _ pending: PendingUpload, hash: String, now: Timestamp, by: String) async throws -> ShareRecord {
        try await change { connection in
            try await connection.lockUntilTransactionEnds(PostgresStore.blobLock, Int64(hash.prefix(8), radix: 16) ?? 0, logger: store.logger)
            let claimed = try await connection.query("DELETE FROM share_upload WHERE id = \(id) RETURNING id", logger: store.logger)
            var found = false
            for try await _ in claimed.decode(String.self) { found = true }
            guard found else { throw ShareError.uploadNotFound(id: id) }
            let (record, seq) = try await insertShare(
                pending.share, now: now, as: pending.share.request == nil ? .uploaded : .received, by: by, connection)
            if let request = pending.share.request {
                try await connection.query("UPDATE share_request SET received = received + 1 WHERE id = \(request)", logger: store.logger)
            }
            let kept = try await connection.query("SELECT seq FROM share_blob WHERE hash = \(hash)", logger: store.logger)
            var blob = pending.blob
            for try await existing in kept.decode(Int64.self) { blob = existing }
            if blob == pending.blob {
                try await connection.query("UPDATE share_blob SET hash = \(hash) WHERE seq = \(blob)", logger: store.logger)
            }
            try await connection.query("UPDATE share SET blob = \(blob) WHERE seq = \(seq)", logger: store.logger)
            if blob != pending.blob {
                try await connection.query("DELETE FROM share_blob WHERE seq = \(pending.blob)", logger: store.logger)
            }
            return record
        }
    }
}
