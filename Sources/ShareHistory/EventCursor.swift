/// Where a page of a record's history ended, as the opaque `cursor` of `GET /share/{id}/events`.
public enum EventCursor {
    /// `e1 <position>`, base64url without padding.
    public static func encode(_ position: Int64) -> String {
        Base64URL.encode("e1 \(position)".utf8)
    }

    /// The position a cursor made by `encode` holds; nil for anything else.
    public static func position(_ text: String) -> Int64? {
        guard let bytes = Base64URL.decode(text), let plain = String(validating: bytes, as: UTF8.self), plain.hasPrefix("e1 "),
            let position = Int64(plain.dropFirst(3)), position >= 0
        else { return nil }
        return position
    }
}
