import Foundation
import ShareKit

/// The daemon's settings once everything that can be checked before opening the database has been checked.
public struct ServerSetup: Sendable {
    public let config: ShareConfig
    /// Every token: `auth.tokens`, the lines of `auth.token_file`, then `[auth.labelled]`. Unlabelled ones are
    /// `token-1`, `token-2`… by position.
    public let credentials: [Credential]
    /// What an operator should change though the daemon can run: files holding tokens that others can read.
    public let warnings: [String]

    /// Reads the token file and enforces the rule that an open server only listens locally.
    public init(config: ShareConfig) throws(ConfigError) {
        var given: [(label: String?, secret: String)] = config.auth.tokens.map { (nil, $0) }
        if let file = config.auth.tokenFile {
            given += try Self.readTokens(from: file)
        }
        given += config.auth.labelled.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        guard !given.isEmpty || config.server.listen.isLocalOnly else {
            throw ConfigError(
                "refusing to listen on \(config.server.listen) without authentication: with no tokens configured, "
                    + "shared listens only on loopback (127.0.0.1, ::1, localhost) or a unix socket; "
                    + "set [auth] tokens or token_file, or listen locally")
        }
        if case .unix = config.server.listen, given.isEmpty, config.server.socketMode & 0o007 != 0 {
            throw ConfigError(
                "server.socket_mode \(String(config.server.socketMode, radix: 8)) lets every user of this machine use the API, and no "
                    + "tokens are configured; use 0660 (the socket's group) or set [auth] tokens")
        }
        self.config = config
        credentials = given.enumerated().map { position, token in
            Credential(label: token.label ?? "token-\(position + 1)", secret: token.secret)
        }
        try Self.refuseCollisions(credentials)
        var secretFiles = config.auth.tokenFile.map { [$0] } ?? []
        if let file = config.file, !config.auth.tokens.isEmpty || !config.auth.labelled.isEmpty { secretFiles.append(file) }
        warnings = secretFiles.compactMap { SecretFile.warning(for: $0) }
    }

    /// Every label names one token, and every token has one label: a change is never put down to the wrong one.
    private static func refuseCollisions(_ credentials: [Credential]) throws(ConfigError) {
        var labels: Set<String> = []
        var secrets: [String: String] = [:]
        for credential in credentials {
            guard credential.label != Credential.localLabel else {
                throw ConfigError("the token label '\(Credential.localLabel)' is reserved for changes made without a token; choose another")
            }
            guard labels.insert(credential.label).inserted else {
                throw ConfigError(
                    "the token label '\(credential.label)' is given twice (unlabelled tokens are token-1, token-2… by position); "
                        + "give each token its own label")
            }
            if let first = secrets.updateValue(credential.label, forKey: credential.secret) {
                throw ConfigError("one token is given under two labels, '\(first)' and '\(credential.label)'; give each label its own token")
            }
        }
    }

    /// One token a line, `SECRET` or `LABEL SECRET`; blank lines and lines starting with `#` are skipped.
    private static func readTokens(from path: String) throws(ConfigError) -> [(label: String?, secret: String)] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read auth.token_file \(path): \(error.localizedDescription)")
        }
        var tokens: [(label: String?, secret: String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            switch fields.count {
            case 1: tokens.append((nil, String(first)))
            case 2 where Credential.isLabel(first): tokens.append((String(first), String(fields[1])))
            default: throw ConfigError("\(path), line \(number + 1): expected a token, or a label and a token")
            }
        }
        return tokens
    }
}
