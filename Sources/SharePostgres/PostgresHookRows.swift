import PostgresNIO
import ShareKit

/// Rows of `hook` as `/hooks` shows them.
enum PostgresHookRows {
    static let columns = "id, url, events, description, enabled, disabled_reason, created_at"

    static func hooks(_ rows: PostgresRowSequence) async throws -> [Hook] {
        var hooks: [Hook] = []
        for try await (id, url, events, description, enabled, reason, created) in rows.decode(
            (String, String, String, String, Bool, String?, Int64).self)
        {
            hooks.append(
                Hook(
                    id: id, url: url, events: events.split(separator: ",").map(String.init), description: description, enabled: enabled,
                    disabledReason: reason, createdAt: Timestamp(millisecondsSinceEpoch: created)))
        }
        return hooks
    }
}
