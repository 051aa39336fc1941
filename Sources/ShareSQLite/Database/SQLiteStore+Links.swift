import GRDB
import ShareHistory
import ShareKit

extension SQLiteStore {
    public func linkedShare(token: String) async throws -> ShareRecord? {
        try await writer.read { [recordForm] db in
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(SQLiteRow.columns) FROM share WHERE link_token = ? AND trashed_at IS NULL"), arguments: [token])
            var form = recordForm.judgedNow()
            form.showsCodes = true
            return row.map { SQLiteRow.record($0, form) }
        }
    }

    public func countDownload(token: String, at now: Timestamp) async throws -> Bool {
        try await changing { db in
            // One statement checks the limits and counts: SQLite runs one writer at a time, so a download racing
            // for the last one allowed finds it taken.
            let owner = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE share SET downloads = downloads + 1
                        WHERE link_token = ? AND trashed_at IS NULL AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
                            AND (max_downloads IS NULL OR downloads < max_downloads)
                        RETURNING owner
                        """), arguments: [token, now.millisecondsSinceEpoch])
            return (owner != nil, owner.map { [$0] } ?? [])
        }
    }
}
