/// `application/x-www-form-urlencoded`, as query strings use it: both programs build and read them with it.
public enum FormEncoding {
    /// `name=value&...` with everything but unreserved characters percent-encoded.
    public static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    /// The values of the `known` parameters of a query string by name; one given twice is refused by its name
    /// (which of the two would count?), and others are passed over.
    public static func values(_ query: String?, known: Set<String>) throws(ShareError) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in try pairs(query) where known.contains(name) {
            guard values.updateValue(value, forKey: name) == nil else { throw .invalidParameter(name, "is given more than once") }
        }
        return values
    }

    /// The decoded `name=value` pairs of a query string, in order; a malformed escape is an error naming the
    /// parameter, never guessed at.
    public static func pairs(_ query: String?) throws(ShareError) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [(name: String, value: String)] = []
        for piece in query.split(separator: "&") {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else {
                throw .invalidParameter(String(parts[0]), "has a name that is not valid percent-encoded UTF-8")
            }
            // A value without a name can be no parameter this server knows: ignored, like any unknown one.
            guard !name.isEmpty else { continue }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw .invalidParameter(name, "is not valid percent-encoded UTF-8")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Decodes `+` and `%XX`; nil when an escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    public static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters, which never need escaping: `A-Z a-z 0-9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The value of one hexadecimal digit.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
