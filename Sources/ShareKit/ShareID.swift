/// Share ids: short, unguessable codes like a cloud drive's extraction code. Both programs know the rule, so
/// the CLI never sends a request for an id no record could have.
public enum ShareID {
    /// Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand stays unambiguous.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let generatedLength = 8
    /// Words that are routes under `/share/`, so no record may be called that.
    public static let reserved: Set<String> = ["import", "export", "stats", "folders"]

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

    /// Whether some record could carry `id`: 1–64 of `[A-Za-z0-9_-]`, not a reserved word. Anything else is
    /// simply not found, without asking the database (or, in the CLI, the server).
    public static func isPlausible(_ id: some StringProtocol) -> Bool {
        (1...64).contains(id.utf8.count) && usesAllowedCharacters(id) && !isReserved(id)
    }

    public static func isReserved(_ id: some StringProtocol) -> Bool {
        id.utf8.count <= 7 && reserved.contains(id.lowercased())
    }

    /// Only `[A-Za-z0-9_-]`.
    public static func usesAllowedCharacters(_ id: some StringProtocol) -> Bool {
        id.utf8.allSatisfy(isAllowed)
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
