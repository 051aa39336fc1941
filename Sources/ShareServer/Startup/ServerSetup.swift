import Foundation
import ShareKit

/// The daemon's settings once everything that can be checked before opening the database has been checked.
public struct ServerSetup: Sendable {
    public let config: ShareConfig
    /// Every token and its user: `auth.tokens` (users `token-1`, `token-2`… by position), the lines of
    /// `auth.token_file`, then `[auth.users]` (and `[auth.labelled]`, its earlier name) by user name.
    public let credentials: [Credential]
    /// What an operator should change though the daemon can run: files holding tokens that others can read.
    public let warnings: [String]
    /// What the daemon says once in its log: settings read under their earlier names.
    public let notices: [String]

    /// Whether any way of signing in is configured: tokens, a reverse proxy's header, or a unix socket's peer.
    public let signInConfigured: Bool

    /// Reads the token file and enforces the rule that an open server only listens locally.
    public init(config: ShareConfig) throws(ConfigError) {
        // Each token of `tokens` and each line of the token file is one user; a table names each user once.
        var lines: [(user: String?, secret: String)] = config.auth.tokens.map { (nil, $0) }
        if let file = config.auth.tokenFile {
            lines += try Self.readTokens(from: file)
        }
        var users = lines.enumerated().map { position, line in (name: line.user ?? "token-\(position + 1)", secrets: [line.secret]) }
        for table in [config.auth.users, config.auth.labelledUsers] {
            users += table.sorted { $0.key < $1.key }.map { (name: $0.key, secrets: $0.value) }
        }
        try Self.refuseCollisions(users)
        self.config = config
        credentials = users.flatMap { user in user.secrets.map { Credential(user: user.name, secret: $0) } }
        signInConfigured = !users.isEmpty || config.auth.proxyUserHeader != nil || config.auth.unixPeer
        try Self.refuseOpenListening(config, signInConfigured: signInConfigured)
        if config.auth.unixPeer, case .tcp = config.server.listen {
            throw ConfigError(
                "auth.unix_peer names the user of a unix socket's peer, but shared listens on \(config.server.listen); listen on unix:/path")
        }
        try Self.refuseHistoriesMismatch(config.auth)
        var secretFiles = config.auth.tokenFile.map { [$0] } ?? []
        if let file = config.file, !config.auth.tokens.isEmpty || !config.auth.users.isEmpty || !config.auth.labelledUsers.isEmpty {
            secretFiles.append(file)
        }
        warnings = secretFiles.compactMap { SecretFile.warning(for: $0) }
        notices = config.auth.labelledUsers.isEmpty ? [] : ["[auth.labelled] is read as [auth.users]: each label is a user's name"]
    }

    /// With no way of signing in, the daemon listens only where nobody else can reach it.
    private static func refuseOpenListening(_ config: ShareConfig, signInConfigured: Bool) throws(ConfigError) {
        guard !signInConfigured else { return }
        guard config.server.listen.isLocalOnly else {
            throw ConfigError(
                "refusing to listen on \(config.server.listen) without sign-in: with no tokens, proxy_user_header or unix_peer "
                    + "configured, shared listens only on loopback (127.0.0.1, ::1, localhost) or a unix socket; "
                    + "set [auth] tokens, token_file or [auth.users], or listen locally")
        }
        if case .unix = config.server.listen, config.server.socketMode & 0o007 != 0 {
            throw ConfigError(
                "server.socket_mode \(String(config.server.socketMode, radix: 8)) lets every user of this machine use the API, and no "
                    + "way of signing in is configured; use 0660 (the socket's group), set [auth] tokens, or unix_peer = true")
        }
    }

    /// Per-user histories need a user behind every request, and per-user quotas need per-user histories.
    private static func refuseHistoriesMismatch(_ auth: AuthSettings) throws(ConfigError) {
        if auth.histories == .perUser, auth.publicRead {
            throw ConfigError(
                "auth.public_read lets requests in as nobody, but auth.histories is \"per-user\": every history is somebody's; "
                    + "turn one of them off")
        }
        if auth.histories == .shared, let user = auth.quotas.keys.sorted().first {
            throw ConfigError(
                "[auth.quota] gives '\(user)' a quota of their own, but auth.histories is \"shared\": there is one history, "
                    + "capped by auth.quota_bytes; set histories = \"per-user\"")
        }
    }

    /// Every user is given once, and every token signs in one user: a change is never put down to the wrong one.
    private static func refuseCollisions(_ users: [(name: String, secrets: [String])]) throws(ConfigError) {
        var names: Set<String> = []
        var secrets: [String: String] = [:]
        for user in users {
            guard !Credential.isReserved(user.name) else {
                throw ConfigError("the user name '\(Credential.localUser)' is reserved for changes made without signing in; choose another")
            }
            guard names.insert(user.name).inserted else {
                throw ConfigError(
                    "the user '\(user.name)' is given twice (tokens without a user are token-1, token-2… by position); "
                        + "give a user's tokens in one place, as a list: \(user.name) = [\"…\", \"…\"]")
            }
            for secret in user.secrets {
                if let first = secrets.updateValue(user.name, forKey: secret), first != user.name {
                    throw ConfigError("one token is given for two users, '\(first)' and '\(user.name)'; give each user their own tokens")
                }
            }
        }
    }

    /// One token a line, `SECRET` or `USER SECRET`; blank lines and lines starting with `#` are skipped.
    private static func readTokens(from path: String) throws(ConfigError) -> [(user: String?, secret: String)] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read auth.token_file \(path): \(error.localizedDescription)")
        }
        var tokens: [(user: String?, secret: String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            switch fields.count {
            case 1: tokens.append((nil, String(first)))
            case 2 where Credential.isUserName(first): tokens.append((String(first), String(fields[1])))
            default: throw ConfigError("\(path), line \(number + 1): expected a token, or a user name and a token")
            }
        }
        return tokens
    }
}
