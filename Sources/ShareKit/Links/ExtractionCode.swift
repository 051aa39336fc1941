/// A share's extraction code: what a recipient types besides the link, like a cloud drive's. 4–32 of
/// `[A-Za-z0-9]`, chosen by the owner or drawn by the server.
public enum ExtractionCode {
    /// The drawn code's letters: digits and capitals without the ones read alike (0 O, 1 I L), so that a code
    /// read aloud or off a screen is typed right.
    private static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ".utf8)

    /// `code`, checked; the error names `field`.
    public static func validate(_ code: String, field: String = "code") throws(ShareError) -> String {
        let letterOrDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard (4...32).contains(code.utf8.count), code.utf8.allSatisfy(letterOrDigit) else {
            throw .invalidField(field, "must be 4 to 32 letters A-Z, a-z or digits")
        }
        return code
    }

    /// Six letters of `alphabet` from the system's cryptographic generator (about 29 bits: a code is tried a few
    /// times a minute at most, behind a link nobody can guess).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<6).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// Whether `given` is `code` in any case (a drawn code's capitals typed on a phone's keyboard, `9jurf2`), in time
    /// that does not depend on where they differ.
    public static func matches(_ given: String, _ code: String) -> Bool {
        let given = Array(given.utf8)
        let code = Array(code.utf8)
        var difference: UInt8 = given.count == code.count ? 0 : 1
        for index in code.indices { difference |= upper(code[index]) ^ upper(index < given.count ? given[index] : 0) }
        return difference == 0
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
    }
}
