import HTTPTypes

/// `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags (over one or several header lines), each compared
/// weakly (`W/"7"` matches `"7"`).
enum EntityTags {
    /// Whether the request's `If-None-Match` matches `tag` (a quoted tag): a 304 is due.
    static func noneMatchHolds(_ headers: HTTPFields, for tag: String) -> Bool {
        let candidates = headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return candidates.contains { candidate in
            candidate == "*" || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == tag
        }
    }
}
