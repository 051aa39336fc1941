import ShareKit

/// Where `shared` is: `http://host:port[/base]`, `https://…`, or `unix:/path/to/shared.sock`.
public struct ServerAddress: Sendable, Equatable {
    /// As the user wrote it, for messages.
    public let display: String
    /// Scheme and authority, such as `http://127.0.0.1:8080`.
    public let origin: String
    /// The base path the API lives under: `""` or `/files`.
    let basePath: String
    public let unixSocket: String?

    public init?(_ text: String) {
        display = text
        if text.hasPrefix("unix:/") {
            origin = "http://localhost"
            basePath = ""
            unixSocket = String(text.dropFirst("unix:".count))
            return
        }
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let path = rest.dropFirst(authority.count)
        guard !path.contains("?"), !path.contains("#") else { return nil }
        origin = String(text[..<schemeEnd.upperBound]) + authority
        basePath = path.hasSuffix("/") ? String(path.dropLast()) : String(path)
        unixSocket = nil
    }

    /// The full URL of an API path such as `/share/ABC`, with its query parameters if any.
    func url(_ path: String, _ parameters: [(name: String, value: String)] = []) -> String {
        let query = FormEncoding.encode(parameters)
        return origin + basePath + path + (query.isEmpty ? "" : "?\(query)")
    }

    /// A share's link as a person opens it: a path of this server (`/s/…`) in full; any other link as it is.
    public func absolute(_ link: String) -> String {
        link.hasPrefix("/") && !link.hasPrefix("//") && unixSocket == nil ? origin + link : link
    }

    /// The URL of a `Link` target the CLI may follow with its token: the endpoint at `path` (`/share`, or a
    /// record's `/share/{id}/events`) of this very server (same scheme, host, port and base path, or the same
    /// socket), written path-absolute or in full. Nil for anything else: another host or port, another path,
    /// another scheme (`file:`, `gopher:`), or bytes that are no part of a URL.
    func page(link target: String, of path: String = "/share") -> String? {
        guard target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), !target.contains("#") else { return nil }
        let relative: Substring
        if target.hasPrefix("/") && !target.hasPrefix("//") {
            relative = target[...]
        } else if target.lowercased().hasPrefix(origin.lowercased() + "/") {
            relative = target.dropFirst(origin.count)
        } else {
            return nil
        }
        return relative.prefix { $0 != "?" } == basePath + path ? origin + relative : nil
    }
}
