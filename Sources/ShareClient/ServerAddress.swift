import ShareKit

/// Where `shared` is: `http://host:port[/base]`, `https://…`, or `unix:/path/to/shared.sock`.
public struct ServerAddress: Sendable, Equatable {
    /// As the user wrote it, for messages.
    public let display: String
    /// Scheme and authority, such as `http://127.0.0.1:8080`.
    let origin: String
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

    /// Resolves a `Link` target: the server writes path-absolute URLs that already carry its base path.
    func resolve(link target: String) -> String {
        target.hasPrefix("/") ? origin + target : target
    }
}
