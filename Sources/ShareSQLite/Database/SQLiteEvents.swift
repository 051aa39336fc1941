import GRDB
import ShareHistory
import ShareKit

/// The `share_event` table: each change to a record, appended in the change's own transaction.
enum SQLiteEvents {
    /// Appends an event to the record with this id.
    static func record(
        _ action: ShareEvent.Action, id: String, at: Timestamp, from: String? = nil, to: String? = nil, by: String, _ db: Database
    ) throws {
        try db.cachedStatement(
            sql: "INSERT INTO share_event (share_seq, at, action, from_value, to_value, by) SELECT seq, ?, ?, ?, ?, ? FROM share WHERE id = ?"
        ).execute(arguments: [at.millisecondsSinceEpoch, action.rawValue, from, to, by, id])
    }

    /// A download counted for good: the event `downloaded` of its share, with the count it reached and its log entry.
    static func recordDownloaded(entry: Int64, at: Timestamp, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO share_event (share_seq, at, action, by, downloads, download_seq)
                SELECT s.seq, ?, 'downloaded', 'link', s.downloads, d.seq FROM share_download d JOIN share s ON s.seq = d.share_seq WHERE d.seq = ?
                """
        ).execute(arguments: [at.millisecondsSinceEpoch, entry])
    }

    /// The events that an update from `original` to `updated` makes: a rename, a move, a trashing, a restoring.
    static func record(from original: ShareRecord, to updated: ShareRecord, at: Timestamp, by: String, _ db: Database) throws {
        for change in RecordChange.between(original, updated) {
            try record(change.action, id: updated.id, at: at, from: change.from, to: change.to, by: by, db)
        }
    }

    /// One page of the events of a record of `owner`'s history, oldest first, after the event `after` (its `seq`); one more than `limit`
    /// tells that another page follows.
    static func page(id: String, owner: Int64, after: Int64, limit: Int, _ db: Database) throws -> [(seq: Int64, event: ShareEvent)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.seq, e.at, e.action, e.from_value, e.to_value, e.by, e.downloads FROM share_event e JOIN share s ON s.seq = e.share_seq
                WHERE s.id = ? AND s.owner = ? AND e.seq > ? ORDER BY e.seq LIMIT ?
                """, arguments: [id, owner, after, limit + 1])
        return rows.map { row in (row["seq"], SQLiteRow.event(row)) }
    }
}
