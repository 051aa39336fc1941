import Foundation

/// The JSON coders both programs use, so the bytes on the wire do not depend on the platform.
public enum WireJSON {
    /// Sorted keys and unescaped `/`: Foundation on Linux otherwise varies key order and writes `\/`.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }
}
