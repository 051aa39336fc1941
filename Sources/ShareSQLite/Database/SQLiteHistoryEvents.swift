import GRDB
import ShareHistory
import ShareKit

/// The `history_event` table, which a trigger fills from `share_event`: each history's events as they go out.
enum SQLiteHistoryEvents {
    static let columns = "seq, owner, share_id, name, folder, size, type, action, from_value, to_value, by, at, downloads, address, agent"

    static func event(_ row: Row) -> HistoryEvent {
        let address: String? = row["address"]
        return HistoryEvent(
            seq: row["seq"], at: Timestamp(millisecondsSinceEpoch: row["at"]), action: ShareEvent.Action(rawValue: row["action"]) ?? .created,
            share: HistoryEvent.Subject(id: row["share_id"], name: row["name"], folder: row["folder"], size: row["size"], type: row["type"]),
            from: row["from_value"], to: row["to_value"], by: row["by"], downloads: row["downloads"],
            download: address.map { HistoryEvent.Downloader(address: $0, agent: row["agent"] ?? "") })
    }

    static func event(seq: Int64, _ db: Database) throws -> HistoryEvent? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM history_event WHERE seq = ?"), arguments: [seq]).map(event)
    }
}
