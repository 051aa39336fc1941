import Foundation

/// What a recipient's page says of who sent a share and why: a sender's name the owner chooses, and a message.
/// Both are shown to anyone with the link, so neither may hold what could disguise the page: control characters
/// (a message's line breaks and tabs aside) or the marks that reverse a line's direction.
public enum ShareGreeting {
    public static let maxSenderCharacters = 80
    public static let maxMessageCharacters = 1000

    /// A sender's name: one line, trimmed, NFC-normalised.
    public static func sender(_ raw: String) throws(ShareError) -> String {
        try checked(raw, field: "sender", maxCharacters: maxSenderCharacters, lines: false)
    }

    /// A file request's title: one line, as a sender's name is.
    public static func title(_ raw: String) throws(ShareError) -> String {
        try checked(raw, field: "title", maxCharacters: FileRequest.maxTitleCharacters, lines: false)
    }

    /// A message: trimmed, NFC-normalised, its line breaks as `\n`; tabs kept.
    public static func message(_ raw: String) throws(ShareError) -> String {
        try checked(raw.replacingOccurrences(of: "\r\n", with: "\n"), field: "message", maxCharacters: maxMessageCharacters, lines: true)
    }

    private static func checked(_ raw: String, field: String, maxCharacters: Int, lines: Bool) throws(ShareError) -> String {
        let text = SearchKey.nfc(raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalidField(field, "must not be empty (null clears it)") }
        guard text.count <= maxCharacters else { throw .invalidField(field, "is \(text.count) characters; at most \(maxCharacters) are allowed") }
        if let refused = text.unicodeScalars.first(where: {
            !(lines && ($0 == "\n" || $0 == "\t")) && (FileName.isControl($0) || isDirectionMark($0))
        }) {
            throw .invalidField(field, "must not contain control or direction characters (found U+\(FileName.hex(refused)))")
        }
        return text
    }

    /// The embeddings, overrides and isolates of Unicode's bidirectional algorithm, and the marks among them.
    private static func isDirectionMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) || (0x200E...0x200F).contains(scalar.value)
            || scalar.value == 0x061C
    }
}
