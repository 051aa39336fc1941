import Foundation

/// The rules a file name (and each folder segment) follows, so that it is safe to show and to store.
public enum FileName {
    public static let maxBytes = 255

    /// Returns the name NFC-normalised, or throws naming `field` and the broken rule.
    public static func validate(_ raw: String, field: String = "name") throws(ShareError) -> String {
        let name = SearchKey.nfc(raw)
        guard !name.isEmpty else { throw .invalidField(field, "must not be empty") }
        guard name.utf8.count <= maxBytes else {
            throw .invalidField(field, "is \(name.utf8.count) bytes of UTF-8; at most \(maxBytes) are allowed")
        }
        guard name != ".", name != ".." else { throw .invalidField(field, "must not be '.' or '..'") }
        // Byte by byte: a '/' followed by a combining mark is one Character that is not "/", yet still a slash.
        guard !name.utf8.contains(UInt8(ascii: "/")) else { throw .invalidField(field, "must not contain '/'") }
        if let control = name.unicodeScalars.first(where: isControl) {
            throw .invalidField(field, "must not contain control characters (found U+\(hex(control)))")
        }
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            throw .invalidField(field, "must not begin or end with whitespace")
        }
        return name
    }

    /// The extension of a file name, lowercased (`Report.PDF` → `pdf`); nil for a name without one, or a dot-file
    /// such as `.bashrc`.
    public static func fileExtension(of name: some StringProtocol) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// C0 (NUL included), DEL and C1: characters that could move a terminal's cursor or corrupt a listing.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
