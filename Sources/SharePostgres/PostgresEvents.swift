import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// The `share_event` table: each change to a record, appended in the change's own transaction.
enum PostgresEvents {
    static func record(
        _ action: ShareEvent.Action, seq: Int64, at: Timestamp, from: String? = nil, to: String? = nil, by: String,
        _ connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO share_event (share_seq, at, action, from_value, to_value, by)
            VALUES (\(seq), \(at.millisecondsSinceEpoch), \(action.rawValue), \(from), \(to), \(by))
            """, logger: logger)
    }

    /// A download counted for good: the event `downloaded` of its share, with the count it reached and its log entry.
    static func recordDownloaded(entry: Int64, at: Timestamp, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO share_event (share_seq, at, action, by, downloads, download_seq)
            SELECT s.seq, \(at.millisecondsSinceEpoch), 'downloaded', 'link', s.downloads, d.seq
            FROM share_download d JOIN share s ON s.seq = d.share_seq WHERE d.seq = \(entry)
            """, logger: logger)
    }

    /// The events an update from `original` to `updated` makes: a rename, a move, a trashing, a restoring.
    static func record(
        from original: ShareRecord, to updated: ShareRecord, seq: Int64, at: Timestamp, by: String, _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        for change in RecordChange.between(original, updated) {
            try await record(change.action, seq: seq, at: at, from: change.from, to: change.to, by: by, connection, logger: logger)
        }
    }

    /// One page of the events of the record at `seq`, oldest first, after the event `after`; one more than `limit`
    /// tells that another page follows.
    static func page(
        seq: Int64, after: Int64, limit: Int, _ connection: PostgresConnection, logger: Logger
    ) async throws -> [(
        seq: Int64, event: ShareEvent
    )] {
        let rows = try await connection.query(
            """
            SELECT seq, at, action, from_value, to_value, by, downloads FROM share_event
            WHERE share_seq = \(seq) AND seq > \(after) ORDER BY seq LIMIT \(limit + 1)
            """, logger: logger)
        var events: [(seq: Int64, event: ShareEvent)] = []
        for try await (eventSeq, at, action, from, to, by, downloads) in rows.decode((Int64, Int64, String, String?, String?, String, Int64?).self) {
            let event = ShareEvent(
                at: Timestamp(millisecondsSinceEpoch: at), action: ShareEvent.Action(rawValue: action) ?? .created, from: from, to: to, by: by,
                downloads: downloads)
            events.append((eventSeq, event))
        }
        return events
    }
}
