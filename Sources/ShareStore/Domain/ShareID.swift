/// Share ids: short, unguessable codes like a cloud drive's extraction code.
public enum ShareID {
    /// Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand stays unambiguous.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let generatedLength = 8
    /// Words that are routes under `/share/`, so no record may be called that.
    static let reserved: Set<String> = ["import", "export", "stats"]

    /// A new 8-character id from the system's cryptographic random source (40 bits).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// Eight 5-bit digits from one 64-bit draw: the alphabet has exactly 32 letters, so each is uniform.
    static func generate(using generator: inout some RandomNumberGenerator) -> String {
        let bits = generator.next()
        return String((0..<generatedLength).map { alphabet[Int(truncatingIfNeeded: bits >> ($0 * 5)) & 31] })
    }

    /// Checks an id given by a client (`POST` with `id`, or an import): 1–64 of `[A-Za-z0-9_-]`, not a reserved word.
    public static func validate(_ id: String, field: String = "id") throws(ShareError) -> String {
        guard (1...64).contains(id.utf8.count) else {
            throw .invalidField(field, "must be 1 to 64 characters long")
        }
        guard id.utf8.allSatisfy(isAllowed) else {
            throw .invalidField(field, "may contain only letters A-Z, a-z, digits, '_' and '-'")
        }
        guard !reserved.contains(id.lowercased()) else {
            throw .invalidField(field, "must not be the reserved word '\(id)'")
        }
        return id
    }

    /// Whether a path segment could name a record at all; anything else is simply not found.
    public static func isPlausible(_ id: some StringProtocol) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
