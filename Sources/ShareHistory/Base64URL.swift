/// Base64url without padding (RFC 4648 §5), the alphabet of cursors in URLs.
///
/// Hand-written because every page with a next page encodes a cursor, and Foundation's base64 (padded, standard
/// alphabet, then rewritten) cost more than the rest of the cursor (docs/benchmarks.md, "A 100-row page": cursors
/// written without Foundation). `Base64URLTests` checks it against Foundation's.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, symbol) in alphabet.enumerated() { values[Int(symbol)] = UInt8(value) }
        return values
    }()

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var bits: UInt32 = 0
        var count = 0
        for byte in bytes {
            bits = bits << 8 | UInt32(byte)
            count += 8
            while count >= 6 {
                count -= 6
                text.append(alphabet[Int(bits >> UInt32(count) & 0x3F)])
            }
        }
        if count > 0 { text.append(alphabet[Int(bits << UInt32(6 - count) & 0x3F)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes; nil for a symbol outside the alphabet, padding, or a length no encoding has.
    static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var bits: UInt32 = 0
        var count = 0
        for symbol in text.utf8 {
            let value = values[Int(symbol)]
            guard value != 0xFF else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        // Leftover bits must be fewer than a symbol's and all zero, as `encode` writes them.
        guard count < 6, bits & (1 << UInt32(count) - 1) == 0 else { return nil }
        return bytes
    }
}
