import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// The `history_event` table, which a trigger fills from `share_event`: each history's events as they go out.
enum PostgresHistoryEvents {
    static let columns = "seq, share_id, name, folder, size, type, action, from_value, to_value, by, at, downloads, address, agent"

    static func events(_ rows: PostgresRowSequence) async throws -> [HistoryEvent] {
        var events: [HistoryEvent] = []
        let columns = (Int64, String, String, String, Int64, String, String, String?, String?, String, Int64, Int64?, String?, String?).self
        for try await (seq, id, name, folder, size, type, action, from, to, by, at, downloads, address, agent) in rows.decode(columns) {
            events.append(
                HistoryEvent(
                    seq: seq, at: Timestamp(millisecondsSinceEpoch: at), action: ShareEvent.Action(rawValue: action) ?? .created,
                    share: HistoryEvent.Subject(id: id, name: name, folder: folder, size: size, type: type), from: from, to: to, by: by,
                    downloads: downloads, download: address.map { HistoryEvent.Downloader(address: $0, agent: agent ?? "") }))
        }
        return events
    }
}
