import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    public func linkedShare(token: String) async throws -> ShareRecord? {
        var form = recordForm.judgedNow()
        form.showsCodes = true
        return try await read { [form] connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: PostgresRows.columns) FROM share WHERE link_token = \(token) AND trashed_at IS NULL", logger: logger)
            for try await row in rows { return try PostgresRows.Columns(row.makeRandomAccess()).record(form) }
            return nil
        }
    }

    public func countDownload(token: String, at now: Timestamp) async throws -> Bool {
        try await changing { connection in
            // The row's lock makes a download racing for the last one allowed wait, then find the limit reached.
            let rows = try await connection.query(
                """
                UPDATE share SET downloads = downloads + 1
                WHERE link_token = \(token) AND trashed_at IS NULL AND revoked_at IS NULL
                    AND (expires_at IS NULL OR expires_at > \(now.millisecondsSinceEpoch))
                    AND (max_downloads IS NULL OR downloads < max_downloads)
                RETURNING owner
                """, logger: logger)
            for try await owner in rows.decode(Int64.self) { return (true, [owner]) }
            return (false, [])
        }
    }
}
