import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func createRequest(_ draft: RequestDraft, now: Timestamp) async throws -> FileRequest {
        try await change { connection in
            let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
            // Drawn until free: ids are short enough to type.
            while true {
                let id = ShareID.generate()
                let rows = try await connection.query(
                    """
                    INSERT INTO share_request (id, owner, token, title, folder, max_files, max_bytes, expires_at, code, created_at)
                    VALUES (\(id), \(owner), \(LinkToken.generate()), \(draft.title), \(draft.folder), \(draft.maxFiles), \(draft.maxBytes),
                        \(draft.expiresAt?.millisecondsSinceEpoch), \(draft.code), \(now.millisecondsSinceEpoch))
                    ON CONFLICT (id) DO NOTHING RETURNING id
                    """, logger: store.logger)
                for try await _ in rows.decode(String.self) { return try await fetchRequest(id: id, owner: owner, at: now, connection) }
            }
        }
    }

    public func requests(now: Timestamp) async throws -> [FileRequest] {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresRequestRows.requests(
                connection.query(
                    "SELECT \(unescaped: PostgresRequestRows.columns) FROM share_request WHERE owner = \(owner) ORDER BY created_at DESC, id",
                    logger: store.logger), at: now)
        }
    }

    public func request(id: String, now: Timestamp) async throws -> FileRequest {
        try await store.read { connection in try await fetchRequest(id: id, owner: try await ownerNumber(connection), at: now, connection) }
    }

    public func changeRequest(id: String, _ change: RequestChange, now: Timestamp) async throws -> FileRequest {
        let changed = try await self.change { connection in
            let owner = try await ownerNumber(connection)
            let id = try await fetchRequest(id: id, owner: owner, at: now, connection).id
            let closedAt = change.closed.map { $0 ? now.millisecondsSinceEpoch : nil }
            try await connection.query(
                """
                UPDATE share_request SET title = coalesce(\(change.title), title), folder = coalesce(\(change.folder), folder),
                    max_files = CASE WHEN \(change.maxFiles != nil) THEN \(change.maxFiles ?? nil) ELSE max_files END,
                    max_bytes = CASE WHEN \(change.maxBytes != nil) THEN \(change.maxBytes ?? nil) ELSE max_bytes END,
                    expires_at = CASE WHEN \(change.expiresAt != nil) THEN \(change.expiresAt??.millisecondsSinceEpoch) ELSE expires_at END,
                    code = CASE WHEN \(change.code != nil) THEN \(change.code ?? nil) ELSE code END,
                    closed_at = CASE WHEN \(closedAt != nil) THEN \(closedAt ?? nil) ELSE closed_at END
                WHERE id = \(id)
                """, logger: store.logger)
            return try await fetchRequest(id: id, owner: owner, at: now, connection)
        }
        if change.closed == true { try await dropUploads(of: changed.id) }
        return changed
    }

    public func deleteRequest(id: String) async throws {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "DELETE FROM share_request WHERE id = \(id.uppercased()) AND owner = \(owner) RETURNING id", logger: store.logger)
            for try await _ in rows.decode(String.self) { return }
            throw FileRequestError.notFound(id: id)
        }
        try await dropUploads(of: id.uppercased())
    }

    /// Drops the files on their way through request `id`, which takes nothing more: their places and the quota they
    /// hold are free at once.
    private func dropUploads(of id: String) async throws {
        let uploads = try await store.read { connection in
            let owner = try await ownerNumber(connection)
            var ids: [String] = []
            let rows = try await connection.query("SELECT id FROM share_upload WHERE request = \(id) AND owner = \(owner)", logger: store.logger)
            for try await upload in rows.decode(String.self) { ids.append(upload) }
            return ids
        }
        for upload in uploads { try? await abandonUpload(id: upload) }
    }

    /// This history's request `id` (whatever its case).
    private func fetchRequest(id: String, owner: Int64, at now: Timestamp, _ connection: PostgresConnection) async throws -> FileRequest {
        let requests = try await PostgresRequestRows.requests(
            connection.query(
                "SELECT \(unescaped: PostgresRequestRows.columns) FROM share_request WHERE id = \(id.uppercased()) AND owner = \(owner)",
                logger: store.logger), at: now)
        guard let request = requests.first else { throw FileRequestError.notFound(id: id) }
        return request
    }

    /// Holds a place for a file of `size` bytes in request `id` within an upload's starting transaction: refused when
    /// the request does not take it, counting the files on their way. The request's row is locked first, and what is
    /// counted is read after, so that of two senders racing for the last place the second sees the first's upload.
    func holdPlace(in id: String, size: Int64, owner: Int64, now: Timestamp, _ connection: PostgresConnection) async throws {
        let locked = try await PostgresRequestRows.requests(
            connection.query(
                "SELECT \(unescaped: PostgresRequestRows.columns) FROM share_request WHERE id = \(id) AND owner = \(owner) FOR UPDATE",
                logger: store.logger), at: now)
        guard let request = locked.first else { throw FileRequestError.closed(.closed) }
        let counted = try await connection.query("SELECT count(*) FROM share_upload WHERE request = \(id)", logger: store.logger)
        var inProgress = 0
        for try await count in counted.decode(Int64.self) { inProgress = Int(count) }
        if let refusal = FileRequestError.refusal(of: size, by: request, inProgress: inProgress) { throw refusal }
    }
}

extension PostgresStore {
    public func openRequest(token: String, now: Timestamp) async throws -> OpenedRequest? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: PostgresRequestRows.columns), CASE WHEN owner = 0 THEN '' ELSE
                    (SELECT name FROM share_user u WHERE u.id = share_request.owner) END
                FROM share_request WHERE token = \(token)
                """, logger: logger)
            for try await row in rows {
                let owner = try row.decode((String, String, String, Int64?, Int64?, Int64?, String?, Int64, Int64?, Int64, String, String?).self).11
                return OpenedRequest(request: try PostgresRequestRows.request(row, at: now), owner: owner ?? "")
            }
            return nil
        }
    }
}

/// Rows of `share_request` as `/requests` shows them.
enum PostgresRequestRows {
    static let columns = "id, title, folder, max_files, max_bytes, expires_at, code, created_at, closed_at, received, token"

    static func requests(_ rows: PostgresRowSequence, at now: Timestamp) async throws -> [FileRequest] {
        var requests: [FileRequest] = []
        for try await row in rows { requests.append(try request(row, at: now)) }
        return requests
    }

    static func request(_ row: PostgresRow, at now: Timestamp) throws -> FileRequest {
        let (id, title, folder, maxFiles, maxBytes, expiresAt, code, created, closed, received, token) = try row.decode(
            (String, String, String, Int64?, Int64?, Int64?, String?, Int64, Int64?, Int64, String).self)
        return FileRequest(
            id: id, title: title, folder: folder, maxFiles: maxFiles, maxBytes: maxBytes,
            expiresAt: expiresAt.map(Timestamp.init(millisecondsSinceEpoch:)),
            code: code, createdAt: Timestamp(millisecondsSinceEpoch: created), closedAt: closed.map(Timestamp.init(millisecondsSinceEpoch:)),
            received: received, token: token, at: now)
    }
}
