/// A host as a `Host` header, an `Origin` or `allowed_hosts` names it: lower-case, IPv6 without brackets, with the
/// port apart (nil when absent or the scheme's default).
public struct HostName: Sendable, Hashable {
    public let name: String
    public let port: Int?

    /// A bare name from the configuration: `files.local`, `192.168.1.20`, `::1`; no port.
    public init?(_ text: String) {
        // Read as bytes: every request's `Host` comes through here.
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return nil }
        var hasColon = false
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes[index] |= 0x20
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"): break
            case UInt8(ascii: ":"): hasColon = true
            default: return nil
            }
        }
        let lowered = String(decoding: bytes, as: UTF8.self)
        guard !hasColon || IPAddressRange(lowered) != nil else { return nil }
        (name, port) = (lowered, nil)
    }

    /// The host of an authority: `Example.org:8080`, `[::1]:80`, `127.0.0.1`. Ports 80 and 443 count as absent, so
    /// an origin that leaves its default port out compares equal to a header that writes it.
    public init?(authority: some StringProtocol) {
        var host = Substring(authority)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = host[..<colon]
        }
        guard let parsed = HostName(String(host)), port.map({ (0...65535).contains($0) }) ?? true else { return nil }
        name = parsed.name
        self.port = port == 80 || port == 443 ? nil : port
    }

    /// The host of an `Origin` header (`https://files.example.org`); nil for `null` or anything that is not one.
    public init?(origin: some StringProtocol) {
        guard let separator = origin.range(of: "://") else { return nil }
        let authority = origin[separator.upperBound...]
        guard !authority.contains("/"), !authority.contains("@") else { return nil }
        self.init(authority: authority)
    }

    /// Names that always mean this machine: `localhost` and its subdomains, 127.0.0.0/8 and `::1`.
    public var isLoopback: Bool {
        name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || Self.loopbackV4.contains(name)
    }

    private static let loopbackV4 = IPAddressRange("127.0.0.0/8")!
}
