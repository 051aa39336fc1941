/// The top-level members of a JSON object, found without decoding their values.
///
/// `JSONDecoder` keeps one of two members with the same key without a word, and reports a value it cannot
/// represent (`1e400`) against the whole body; these members let both be answered by the field's name.
struct JSONObjectMembers {
    /// Each member's key (escapes decoded) and the bytes of its value, in order.
    private(set) var members: [(key: String, value: ArraySlice<UInt8>)] = []

    /// Nil when `bytes` is not one JSON object with well-formed strings and balanced brackets.
    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                guard let key = reader.string() else { return nil }
                reader.skipWhitespace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                guard let value = reader.value() else { return nil }
                members.append((key, bytes[value]))
                reader.skipWhitespace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { return nil }
    }

    /// The first key that appears a second time.
    var repeatedKey: String? {
        var seen: Set<String> = []
        return members.first { !seen.insert($0.key).inserted }?.key
    }
}

/// A cursor over JSON text that recognises tokens without building values.
private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string token, decoded; nil if malformed.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                let raw = bytes[start..<(index - 1)]
                return escaped ? Self.unescape(raw) : String(validating: raw, as: UTF8.self)
            } else if byte < 0x20 {
                return nil
            }
        }
        return nil
    }

    /// The range of one value of any kind; nil if a string in it is malformed or its brackets do not balance.
    mutating func value() -> Range<Int>? {
        let start = index
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard string() != nil else { return nil }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "\""): guard string() != nil else { return nil }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                default: index += 1
                }
            } while depth > 0
        default:
            // A number or a literal: everything up to the next delimiter.
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            }
        }
        return index > start ? start..<index : nil
    }

    /// Decodes a string's escapes (`\n`, `\u00e9`, surrogate pairs); nil for an escape JSON does not have.
    private static func unescape(_ raw: ArraySlice<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var index = raw.startIndex
        func flush() -> Bool {
            guard let text = String(validating: utf8, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            utf8.removeAll()
            return true
        }
        func hex4(at position: Int) -> UInt32? {
            guard position + 4 <= raw.endIndex else { return nil }
            return UInt32(String(decoding: raw[position..<(position + 4)], as: UTF8.self), radix: 16)
        }
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.endIndex else {
                utf8.append(byte)
                index += 1
                continue
            }
            guard flush() else { return nil }
            let simple: [UInt8: Unicode.Scalar] = [
                UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
                UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
            ]
            if let scalar = simple[raw[index + 1]] {
                scalars.append(scalar)
                index += 2
                continue
            }
            guard raw[index + 1] == UInt8(ascii: "u"), var code = hex4(at: index + 2) else { return nil }
            index += 6
            if (0xD800..<0xDC00).contains(code), index + 1 < raw.endIndex, raw[index] == UInt8(ascii: "\\"),
                raw[index + 1] == UInt8(ascii: "u"), let low = hex4(at: index + 2), (0xDC00..<0xE000).contains(low)
            {
                code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                index += 6
            }
            guard let scalar = Unicode.Scalar(code) else { return nil }
            scalars.append(scalar)
        }
        guard flush() else { return nil }
        return String(scalars)
    }
}
