import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    public func createRequest(_ draft: RequestDraft, now: Timestamp) async throws -> FileRequest {
        try await change { db in
            let owner = try store.ownerNumbers.numbering(owner, db)
            let id = try RequestRows.freeID(db)
            try db.execute(
                sql: """
                    INSERT INTO share_request (id, owner, token, title, folder, max_files, max_bytes, expires_at, code, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, owner, LinkToken.generate(), draft.title, draft.folder, draft.maxFiles, draft.maxBytes,
                    draft.expiresAt?.millisecondsSinceEpoch, draft.code, now.millisecondsSinceEpoch,
                ])
            return try fetchRequest(id: id, at: now, db)
        }
    }

    public func requests(now: Timestamp) async throws -> [FileRequest] {
        try await store.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM share_request WHERE owner = ? ORDER BY created_at DESC, id", arguments: [try ownerNumber(db)]
            ).map { RequestRows.request($0, at: now) }
        }
    }

    public func request(id: String, now: Timestamp) async throws -> FileRequest {
        try await store.writer.read { db in try fetchRequest(id: id, at: now, db) }
    }

    public func changeRequest(id: String, _ change: RequestChange, now: Timestamp) async throws -> FileRequest {
        let changed = try await self.change { db in
            let id = try fetchRequest(id: id, at: now, db).id
            var assignments: [String] = []
            var arguments = StatementArguments()
            func set(_ column: String, _ value: (any DatabaseValueConvertible)?) {
                assignments.append("\(column) = ?")
                arguments += [value]
            }
            if let title = change.title { set("title", title) }
            if let folder = change.folder { set("folder", folder) }
            if let maxFiles = change.maxFiles { set("max_files", maxFiles) }
            if let maxBytes = change.maxBytes { set("max_bytes", maxBytes) }
            if let expiresAt = change.expiresAt { set("expires_at", expiresAt?.millisecondsSinceEpoch) }
            if let code = change.code { set("code", code) }
            if let closed = change.closed { set("closed_at", closed ? now.millisecondsSinceEpoch : nil) }
            arguments += [id]
            try db.execute(sql: "UPDATE share_request SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments: arguments)
            return try fetchRequest(id: id, at: now, db)
        }
        if change.closed == true { try await dropUploads(of: changed.id) }
        return changed
    }

    public func deleteRequest(id: String) async throws {
        try await change { db in
            try db.execute(sql: "DELETE FROM share_request WHERE id = ? AND owner = ?", arguments: [id.uppercased(), try ownerNumber(db)])
            guard db.changesCount > 0 else { throw FileRequestError.notFound(id: id) }
        }
        try await dropUploads(of: id.uppercased())
    }

    /// Drops the files on their way through request `id`, which takes nothing more: their places and the quota they
    /// hold are free at once.
    private func dropUploads(of id: String) async throws {
        let uploads = try await store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM share_upload WHERE request = ? AND owner = ?", arguments: [id, try ownerNumber(db)])
        }
        for upload in uploads { try? await abandonUpload(id: upload) }
    }

    /// This history's request `id` (whatever its case).
    private func fetchRequest(id: String, at now: Timestamp, _ db: Database) throws -> FileRequest {
        let row = try Row.fetchOne(
            db, sql: "SELECT * FROM share_request WHERE id = ? AND owner = ?", arguments: [id.uppercased(), try ownerNumber(db)])
        guard let row else { throw FileRequestError.notFound(id: id) }
        return RequestRows.request(row, at: now)
    }

    /// Holds a place for a file of `size` bytes in request `id` within an upload's starting write: refused when the
    /// request does not take it, counting the files on their way (whose uploads name it).
    func holdPlace(in id: String, size: Int64, now: Timestamp, _ db: Database) throws {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT r.*, (SELECT count(*) FROM share_upload u WHERE u.request = r.id) AS in_progress
                FROM share_request r WHERE r.id = ? AND r.owner = ?
                """,
            arguments: [id, try ownerNumber(db)])
        guard let row else { throw FileRequestError.closed(.closed) }
        if let refusal = FileRequestError.refusal(of: size, by: RequestRows.request(row, at: now), inProgress: row["in_progress"]) {
            throw refusal
        }
    }
}

extension SQLiteStore {
    public func openRequest(token: String, now: Timestamp) async throws -> OpenedRequest? {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM share_request WHERE token = ?", arguments: [token]) else { return nil }
            let owner: Int64 = row["owner"]
            let name = owner == OwnerNumber.nobody ? "" : try String.fetchOne(db, sql: "SELECT name FROM share_user WHERE id = ?", arguments: [owner])
            return OpenedRequest(request: RequestRows.request(row, at: now), owner: name ?? "")
        }
    }
}

/// Rows of `share_request` as `/requests` shows them.
enum RequestRows {
    static func request(_ row: Row, at now: Timestamp) -> FileRequest {
        FileRequest(
            id: row["id"], title: row["title"], folder: row["folder"], maxFiles: row["max_files"], maxBytes: row["max_bytes"],
            expiresAt: (row["expires_at"] as Int64?).map(Timestamp.init(millisecondsSinceEpoch:)), code: row["code"],
            createdAt: Timestamp(millisecondsSinceEpoch: row["created_at"]),
            closedAt: (row["closed_at"] as Int64?).map(Timestamp.init(millisecondsSinceEpoch:)), received: row["received"],
            token: row["token"], at: now)
    }

    /// An id no request has.
    static func freeID(_ db: Database) throws -> String {
        while true {
            let id = ShareID.generate()
            let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM share_request WHERE id = ?)", arguments: [id]) ?? false
            if !taken { return id }
        }
    }
}
