import ShareHistory
import ShareKit

/// `limit` and `cursor` of `GET /share/{id}/events`: the page size as listings have it, and where the previous
/// page ended (an event's position, opaque on the wire).
struct EventPaging {
    var limit = ListingQuery.defaultLimit
    /// The position of the last event shown (0: from the first).
    var after: Int64 = 0

    init(query: String?) throws(ShareError) {
        let (limitName, cursorName) = (ListingQuery.Parameter.limit.rawValue, ListingQuery.Parameter.cursor.rawValue)
        let values = try FormEncoding.values(query, known: [limitName, cursorName])
        if let value = values[limitName] { limit = try ListingQuery.limit(value) }
        if let value = values[cursorName] {
            guard let position = EventCursor.position(value) else {
                throw .invalidParameter(cursorName, "is not a cursor this server issued; take it from a Link header")
            }
            after = position
        }
    }

    /// The parameters of the page after the event at `position`.
    func parameters(continuingAfter position: Int64) -> [(name: String, value: String)] {
        [(ListingQuery.Parameter.limit.rawValue, String(limit)), (ListingQuery.Parameter.cursor.rawValue, EventCursor.encode(position))]
    }
}
