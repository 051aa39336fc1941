import Foundation
import GRDB
import NIOCore
import ShareHistory
import ShareKit
import _NIOFileSystem

extension SQLiteHistory {
    public func startUpload(_ share: NewShare, now: Timestamp) async throws -> UploadStatus {
        let id = LinkToken.generate()
        let object = store.bucket.map { _ in BucketUpload.key(of: id) }
        // An empty file has no parts: it is put whole when it finishes.
        let multipart = try await startMultipart(object, length: share.size)
        if object == nil { try store.files.createUpload(id) }
        do {
            try await SQLiteStore.storing {
                try await store.writer.write { db in
                    try refusePastQuota(adding: Sums(size: share.size), db)
                    let counting = "SELECT count(*) FROM share_upload WHERE owner = ?"
                    let inProgress = try Int.fetchOne(db, sql: counting, arguments: [try ownerNumber(db)]) ?? 0
                    guard inProgress < UploadStatus.maxInProgress else { throw ShareError.tooManyUploads(limit: UploadStatus.maxInProgress) }
                    if let request = share.request { try holdPlace(in: request, size: share.size, now: now, db) }
                    try db.execute(
                        sql: """
                            INSERT INTO share_upload (
                                id, owner, length, name, folder, expires_at, max_downloads, code, sender, message, touched_at, object, multipart,
                                files, request)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            id, try store.ownerNumbers.numbering(owner, db), share.size, share.name, share.folder,
                            share.link.expiresAt?.millisecondsSinceEpoch, share.link.maxDownloads, share.link.code, share.link.sender,
                            share.link.message, now.millisecondsSinceEpoch, object, multipart, share.files.map(BundleFiles.json), share.request,
                        ])
                }
            }
        } catch {
            if let object, let multipart { try? await store.bucket?.abortUpload(object, upload: multipart) }
            store.files.remove(upload: id)
            throw error
        }
        return UploadStatus(id: id, length: share.size, offset: 0, expiresAt: UploadStatus.expiry(touchedAt: now))
    }

    public func upload(id: String) async throws -> UploadStatus {
        try await pendingStatus(id).status
    }

    public func finishCutOffUpload(id: String, now: Timestamp, by: String) async throws -> UploadStatus {
        let (share, status) = try await pendingStatus(id)
        guard status.offset == status.length, store.appending.begin(id) else { return status }
        defer { store.appending.end(id) }
        let object = try await pendingUpload(id).object
        let hash =
            if object != nil {
                try await BucketUploads.complete(id, bucket: try bucket(), records: self, digests: store.digests)
            } else {
                try await store.digests.hash(
                    of: id, upTo: status.offset, reading: SQLiteBlob(path: store.files.upload(id), hash: "", size: status.offset)
                ).hex()
            }
        let record = try await finishUpload(id, share, hash: hash, object: object, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: share.size, offset: share.size, expiresAt: status.expiresAt, share: record)
    }

    public func appendToUpload<Body: AsyncSequence>(
        id: String, at offset: Int64, _ body: Body, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer {
        let (share, _, object, received) = try await pendingUpload(id)
        if object != nil { return try await appendInBucket(id, share, at: offset, body, received: received, now: now, by: by) }
        guard store.appending.begin(id) else { throw ShareError.uploadOffset(held: store.files.uploadSize(id) ?? 0) }
        defer { store.appending.end(id) }
        let held = store.files.uploadSize(id) ?? 0
        guard offset == held else { throw ShareError.uploadOffset(held: held) }
        var receiver = UploadReceiver(
            length: share.size, offset: offset,
            hash: try await store.digests.hash(of: id, upTo: offset, reading: SQLiteBlob(path: store.files.upload(id), hash: "", size: offset)))
        do {
            try await receive(body, into: id, with: &receiver)
        } catch ShareError.storageUnavailable(let reason) {
            // A disk that filled keeps nothing of the upload: its bytes go, so that the space is there for the rest.
            try? await dropUpload(id)
            throw ShareError.storageUnavailable(reason)
        } catch {
            store.digests.keep(id, receiver.hash, at: receiver.offset)
            try? await touch(id, now)
            throw error
        }
        store.digests.keep(id, receiver.hash, at: receiver.offset)
        guard receiver.isComplete else {
            try await touch(id, now)
            return UploadStatus(id: id, length: share.size, offset: receiver.offset, expiresAt: UploadStatus.expiry(touchedAt: now))
        }
        let record = try await finishUpload(id, share, hash: receiver.hash.hex(), object: nil, now: now, by: by)
        store.digests.forget(id)
        return UploadStatus(id: id, length: share.size, offset: share.size, expiresAt: UploadStatus.expiry(touchedAt: now), share: record)
    }

    /// Appends `body` to the upload's file; what arrived whole before an error stays, synchronized to the disk.
    private func receive<Body: AsyncSequence>(_ body: Body, into id: String, with receiver: inout UploadReceiver) async throws
    where Body.Element == ByteBuffer {
        try await SQLiteStore.writingFiles {
            try await FileSystem.shared.withFileHandle(
                forReadingAndWritingAt: FilePath(store.files.upload(id)), options: .modifyFile(createIfNecessary: false)
            ) { file in
                let writes = UploadFileWrites()
                do {
                    try await receiver.receive(body) { chunk, at in
                        try await file.withUnsafeDescriptor { try writes.write(chunk, at: at, to: $0.rawValue) }
                    }
                } catch {
                    // What arrived whole stays, durably, for the client to resume from; a chunk cut short goes.
                    try await file.resize(to: .bytes(receiver.offset))
                    try await file.synchronize()
                    throw error
                }
                try await file.synchronize()
            }
        }
    }

    /// Notes that the upload got bytes at `now`: it waits a day from then.
    private func touch(_ id: String, _ now: Timestamp) async throws {
        try await store.writer.write { db in
            try db.execute(sql: "UPDATE share_upload SET touched_at = ? WHERE id = ?", arguments: [now.millisecondsSinceEpoch, id])
        }
    }

    public func abandonUpload(id: String) async throws {
        _ = try await pendingUpload(id)
        try await dropUpload(id)
    }

    /// Forgets upload `id`: its bytes first, which gives a full disk the room its row's deletion needs (in a bucket,
    /// its multipart upload and any object it made are queued for the bucket).
    private func dropUpload(_ id: String) async throws {
        store.files.remove(upload: id)
        store.digests.forget(id)
        try await SQLiteStore.storing {
            try await store.writer.write { db in
                try SQLiteStore.releaseUploadObjects(ids: [id], at: .now(), db)
                try db.execute(sql: "DELETE FROM share_upload WHERE id = ?", arguments: [id])
            }
        }
        _ = try? await store.releaseFreedObjects()
    }

    public func storedBytes(id: String, includeTrashed: Bool) async throws -> (any StoredBytes)? {
        let found = try await store.writer.read { db -> (hash: String, size: Int64, object: String?)? in
            let seq = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, db)
            return try Row.fetchOne(
                db.cachedStatement(sql: "SELECT b.hash, b.size, b.object FROM share s JOIN share_blob b ON b.seq = s.blob WHERE s.seq = ?"),
                arguments: [seq]
            ).map { ($0["hash"], $0["size"], $0["object"]) }
        }
        guard let found else { return nil }
        return try store.storedBytes(hash: found.hash, size: found.size, object: found.object)
    }

    /// The share this history's upload `id` becomes, and where the upload stands.
    private func pendingStatus(_ id: String) async throws -> (share: NewShare, status: UploadStatus) {
        let (share, touched, object, received) = try await pendingUpload(id)
        guard let offset = object == nil ? store.files.uploadSize(id) : received else { throw ShareError.uploadNotFound(id: id) }
        var status = UploadStatus(id: id, length: share.size, offset: offset, expiresAt: UploadStatus.expiry(touchedAt: touched))
        status.request = share.request
        return (share, status)
    }

    /// The share this history's upload `id` becomes, when it last got bytes, and in a bucket, its object and the bytes
    /// it holds.
    private func pendingUpload(_ id: String) async throws -> (share: NewShare, touched: Timestamp, object: String?, received: Int64) {
        let found = try await store.writer.read { db -> (share: NewShare, touched: Timestamp, object: String?, received: Int64)? in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT length, name, folder, expires_at, max_downloads, code, touched_at, sender, message, object, received, files, request
                    FROM share_upload WHERE id = ? AND owner = ?
                    """,
                arguments: [id, try ownerNumber(db)])
            guard let row else { return nil }
            var share = try NewShare(id: nil, name: row["name"], folder: row["folder"], createdAt: nil, size: row["length"])
            share.link = NewLink(
                expiresAt: (row["expires_at"] as Int64?).map(Timestamp.init(millisecondsSinceEpoch:)), maxDownloads: row["max_downloads"],
                code: row["code"], sender: row["sender"], message: row["message"])
            share.link.stored = true
            share.files = (row["files"] as String?).flatMap(BundleFiles.files(json:))
            share.arrives(through: row["request"])
            return (share, Timestamp(millisecondsSinceEpoch: row["touched_at"]), row["object"], row["received"])
        }
        guard let found else { throw ShareError.uploadNotFound(id: id) }
        return found
    }

    /// Makes the finished upload its share: the record, its event and its blob (the file moved to its hash's name, or
    /// dropped for the same bytes kept already; in a bucket, its `object` kept or queued for deletion) in one
    /// transaction.
    func finishUpload(_ id: String, _ share: NewShare, hash: String, object: String?, now: Timestamp, by: String) async throws -> ShareRecord {
        let record = try await change { [files = store.files] db in
            // Gone first, so that the quota counts these bytes once: as the share's, no longer as an upload's.
            try db.execute(sql: "DELETE FROM share_upload WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw ShareError.uploadNotFound(id: id) }
            let record = try insertShare(share, now: now, as: share.request == nil ? .uploaded : .received, by: by, db)
            if let request = share.request {
                try db.execute(sql: "UPDATE share_request SET received = received + 1 WHERE id = ?", arguments: [request])
            }
            var blob = try Int64.fetchOne(db, sql: "SELECT seq FROM share_blob WHERE hash = ?", arguments: [hash])
            if let object {
                if blob == nil {
                    try db.execute(sql: "INSERT INTO share_blob (hash, size, object) VALUES (?, ?, ?)", arguments: [hash, share.size, object])
                    blob = db.lastInsertedRowID
                } else {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO share_object_freed (object, freed_at) VALUES (?, ?)",
                        arguments: [object, now.millisecondsSinceEpoch])
                }
            } else if blob == nil {
                // Under the write lock, so that no other transaction frees or keeps the same name meanwhile.
                try files.keep(upload: id, as: hash)
                try db.execute(sql: "INSERT INTO share_blob (hash, size) VALUES (?, ?)", arguments: [hash, share.size])
                blob = db.lastInsertedRowID
            }
            try db.execute(sql: "UPDATE share SET blob = ? WHERE id = ?", arguments: [blob, record.id])
            return record
        }
        // Bytes kept already: the upload's own copy goes.
        store.files.remove(upload: id)
        return record
    }
}
