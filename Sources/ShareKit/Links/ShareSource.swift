/// Where a share made on another service lives: its link leads there.
public enum ShareSource {
    private static let example = "such as https://drive.example.com/s/abc"

    /// `url`, checked: an `https` URL of at most 2048 bytes whose host is a name (`drive.example.com`, in ASCII: an
    /// international one as `xn--…`) or an address, with an optional port and no user part (`https://bank.com@evil`);
    /// no spaces or control characters. Letters beyond ASCII in the rest are percent-encoded, so that a `Location`
    /// carries only what HTTP allows.
    /// `request:{id}`, the source of a file sent through a file request (as an export carries it), is kept as it is.
    public static func validate(_ url: String) throws(ShareError) -> String {
        if isRequest(url) { return url }
        guard url.hasPrefix("https://"), url.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .invalidField("source", "must be an https:// URL without spaces, \(example)")
        }
        let rest = url.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard isAuthority(authority) else {
            throw .invalidField("source", "must name its host as a name in ASCII or an address, with no user part, \(example)")
        }
        var encoded = "https://" + authority
        for byte in rest.dropFirst(authority.count).utf8 {
            encoded += byte < 0x80 ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true)
        }
        guard encoded.utf8.count <= 2048 else { throw .invalidField("source", "must be at most 2048 bytes once encoded") }
        return encoded
    }

    /// Whether `source` names a file request (`request:` and its id) rather than a place a link leads to.
    public static func isRequest(_ source: String) -> Bool {
        let id = source.utf8.dropFirst("request:".count)
        return source.hasPrefix("request:") && (1...40).contains(id.count)
            && id.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// `host` or `host:port`, the host a DNS name of letters, digits and hyphens, an IPv4 address or a bracketed IPv6 one.
    private static func isAuthority(_ authority: Substring) -> Bool {
        var host = authority
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let port = Int64(clientDigits: authority[authority.index(after: colon)...]), (1...65535).contains(port) else { return false }
            host = authority[..<colon]
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            let inside = host.dropFirst().dropLast()
            return inside.contains(":") && inside.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return host.utf8.count <= 253 && !labels.isEmpty
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D }
            }
    }
}
