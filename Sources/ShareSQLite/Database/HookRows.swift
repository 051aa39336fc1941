import GRDB
import ShareKit

/// Rows of `hook` and `hook_delivery` as `/hooks` shows them.
enum HookRows {
    static func hook(_ row: Row) -> Hook {
        let events: String = row["events"]
        return Hook(
            id: row["id"], url: row["url"], events: events.split(separator: ",").map(String.init), description: row["description"],
            enabled: row["enabled"], disabledReason: row["disabled_reason"], createdAt: Timestamp(millisecondsSinceEpoch: row["created_at"]))
    }

    static func delivery(_ row: Row) -> HookDelivery {
        HookDelivery(
            id: row["seq"], eventId: String(row["event_seq"] as Int64), type: row["type"], attempt: row["attempt"],
            at: Timestamp(millisecondsSinceEpoch: row["at"]), status: row["status"], ms: row["ms"], error: row["error"])
    }
}
