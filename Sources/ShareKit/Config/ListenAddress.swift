/// Where `shared` accepts connections: `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080` or `unix:/run/share/shared.sock`.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    public init?(_ text: String) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard path.hasPrefix("/") else { return nil }
            self = .unix(path: path)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // an IPv6 address needs brackets
        }
        guard !host.isEmpty else { return nil }
        self = .tcp(host: host, port: port)
    }

    /// True when only processes on this machine can connect.
    public var isLocalOnly: Bool {
        switch self {
        case .unix: return true
        case .tcp(let host, _):
            if host == "localhost" || host == "::1" { return true }
            return IPAddressRange("127.0.0.0/8")!.contains(host)
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): return "unix:\(path)"
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
