/// Deterministic pseudo-random numbers (SplitMix64), so a property test's failure can be replayed.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix {
    /// Pieces hostile input is made of: syntax of every format the programs read, controls, invalid UTF-8,
    /// combining marks, wide and right-to-left characters.
    private static let pieces: [[UInt8]] =
        [
            "{", "}", "[", "]", "\"", "\\", ",", ":", "=", "&", "%", "%2", "%zz", "%00", "+", "/", ".", "..", "T", "Z", "-", "+08:00",
            "2021-01-17", "12:34:56", ".789", "0", "9", "1e400", "true", "null", "a", "Ü", "\u{301}", "报", "\u{202E}", "\n", "\r", "\t",
            " ", "#", "[server]", "listen", "tokens", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "😀", "name", "size", "date", "q", "tz", "cursor",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x80], [0xED, 0xA0, 0x80]]

    /// Up to `maxPieces` pieces, joined: text that is often almost valid, which is where parsers break.
    public mutating func hostileBytes(maxPieces: Int = 24) -> [UInt8] {
        (0..<Int.random(in: 0...maxPieces, using: &self)).flatMap { _ in Self.pieces.randomElement(using: &self)! }
    }

    /// `hostileBytes` as a string (invalid UTF-8 replaced, as a decoder would).
    public mutating func hostileText(maxPieces: Int = 24) -> String {
        String(decoding: hostileBytes(maxPieces: maxPieces), as: UTF8.self)
    }
}
