/// The path prefix a reverse proxy serves the API under.
enum BasePath {
    /// `/`, or `/segment/...` with no trailing slash; `/files/` becomes `/files`.
    static func normalize(_ text: String) throws -> String {
        guard text.hasPrefix("/") else { throw InvalidSetting(reason: "must start with '/', got '\(text)'") }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let trimmed = segments.last == "" ? Array(segments.dropLast()) : Array(segments)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        for segment in trimmed where segment.isEmpty || segment == "." || segment == ".." || !segment.allSatisfy(allowed.contains) {
            throw InvalidSetting(reason: "'\(text)' is not a plain path such as /files")
        }
        return "/" + trimmed.joined(separator: "/")
    }
}
