import Foundation
import ShareKit

/// The daemon's settings once everything that can be checked before opening the database has been checked.
public struct ServerSetup: Sendable {
    public let config: ShareConfig
    /// `auth.tokens` together with the lines of `auth.token_file`.
    public let tokens: [String]

    /// Reads the token file and enforces the rule that an open server only listens locally.
    public init(config: ShareConfig) throws(ConfigError) {
        var tokens = config.auth.tokens
        if let file = config.auth.tokenFile {
            tokens += try Self.readTokens(from: file)
        }
        guard !tokens.isEmpty || config.server.listen.isLocalOnly else {
            throw ConfigError(
                "refusing to listen on \(config.server.listen) without authentication: with no tokens configured, "
                    + "shared listens only on loopback (127.0.0.1, ::1, localhost) or a unix socket; "
                    + "set [auth] tokens or token_file, or listen locally")
        }
        self.config = config
        self.tokens = tokens
    }

    /// One token a line; blank lines and lines starting with `#` are skipped.
    private static func readTokens(from path: String) throws(ConfigError) -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read auth.token_file \(path): \(error.localizedDescription)")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
