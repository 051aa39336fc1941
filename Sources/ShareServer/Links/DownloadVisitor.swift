import Foundation

/// What a share's access log keeps of who downloaded it: never the whole address, never the whole user agent.
enum DownloadVisitor {
    /// The address cut to its network: an IPv4 address to its /24 (`203.0.113.0`), an IPv6 one to its /48
    /// (`2001:db8:1::`); anything else (a unix socket's `local`) as `-`.
    static func network(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let bytes = withUnsafeBytes(of: v4) { Array($0) }
            return "\(bytes[0]).\(bytes[1]).\(bytes[2]).0"
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return "-" }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        return stride(from: 0, to: 6, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":") + "::"
    }

    /// The family of the user agent a request names.
    static func agent(_ header: String?) -> String {
        guard let header else { return "other" }
        // Order matters: Edge names Chrome and Safari too, Chrome names Safari.
        let families: [(marker: String, family: String)] = [
            ("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Chromium/", "Chrome"), ("Safari/", "Safari"),
            ("curl/", "curl"), ("Wget/", "wget"), ("wget2/", "wget"), ("share/", "share"),
        ]
        return families.first { header.contains($0.marker) }?.family ?? "other"
    }
}
