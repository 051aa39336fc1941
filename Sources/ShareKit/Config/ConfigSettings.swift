import Foundation

extension ConfigSetting {
    /// Every key `share.toml` accepts. Anything else is an error that names it.
    static let all: [ConfigSetting] =
        [
            ConfigSetting("server", "listen", .string) { config, text, _ in
                guard let address = ListenAddress(text) else {
                    throw InvalidSetting(reason: "expected host:port, [IPv6]:port or unix:/absolute/path, got '\(text)'")
                }
                config.server.listen = address
            },
            ConfigSetting("server", "base_path", .string) { config, text, _ in
                config.server.basePath = try BasePath.normalize(text)
            },
            ConfigSetting("server", "timezone", .string) { config, text, _ in
                config.server.timezone = try zoneName(text)
            },
            ConfigSetting("server", "trusted_proxies", .strings) { config, ranges, _ in
                config.server.trustedProxies = try ranges.map { text in
                    guard let range = IPAddressRange(text) else { throw InvalidSetting(reason: "'\(text)' is not a CIDR block such as 10.0.0.0/8") }
                    return range
                }
            },
            .positive("server", "max_body_bytes", counting: "bytes", \.server.maxBodyBytes),
            .positive("server", "max_picture_bytes", counting: "bytes", \.server.maxPictureBytes),
            .positive("server", "max_upload_bytes", counting: "bytes", \.server.maxUploadBytes),
            .positive("server", "max_uploads", counting: "uploads", \.server.maxUploads),
            .positive("server", "max_connections", counting: "connections", \.server.maxConnections),
            .positive("server", "idle_timeout_seconds", counting: "seconds", \.server.idleTimeoutSeconds),
            .positive("server", "request_timeout_seconds", counting: "seconds", \.server.requestTimeoutSeconds),
            .positive("server", "min_upload_rate", counting: "bytes a second", \.server.minUploadRate),
            .positive("server", "shutdown_seconds", counting: "seconds", \.server.shutdownSeconds),
            ConfigSetting("server", "heavy_reads", .integer) { config, slots, _ in
                guard (0...4).contains(slots) else {
                    throw InvalidSetting(reason: "must be 0 (half the cores) to 4: the database has five readers, and quick reads keep one")
                }
                config.server.heavyReads = slots
            },
            .positive("server", "heavy_wait_seconds", counting: "seconds", \.server.heavyWaitSeconds),
            ConfigSetting("server", "allowed_hosts", .strings) { config, names, _ in
                config.server.allowedHosts = try names.map { name in
                    guard let host = HostName(name) else { throw InvalidSetting(reason: "'\(name)' is not a host name such as files.local") }
                    return host.name
                }
            },
            ConfigSetting("server", "share_url", .string) { config, pattern, _ in
                let web = pattern.hasPrefix("https://") || pattern.hasPrefix("http://")
                let plain = pattern.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
                guard pattern.isEmpty || (web && plain && (pattern.contains("{token}") || pattern.contains("{id}"))) else {
                    throw InvalidSetting(
                        reason:
                            "expected an http:// or https:// URL with {token} where the link's token goes (or {id}, the share id, for another service's links), got '\(pattern)'"
                    )
                }
                config.server.shareURL = pattern
            },
            ConfigSetting("server", "service_name", .string) { config, name, _ in
                guard (1...64).contains(name.count), name == name.trimmingCharacters(in: .whitespaces),
                    !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
                else { throw InvalidSetting(reason: "expected 1 to 64 characters with no control characters, got '\(name.prefix(80))'") }
                config.server.serviceName = name
            },
            ConfigSetting("server", "metrics_public", .bool) { config, flag, _ in
                config.server.metricsPublic = flag
            },
            ConfigSetting("server", "socket_mode", .string) { config, text, _ in
                guard text.count == 4, text.hasPrefix("0"), let mode = UInt16(text, radix: 8) else {
                    throw InvalidSetting(reason: "must be four octal digits such as \"0660\", got '\(text)'")
                }
                config.server.socketMode = mode
            },
            ConfigSetting("server", "log_format", .string) { config, text, _ in
                guard let format = LogFormat(rawValue: text) else { throw InvalidSetting(reason: "must be \"text\" or \"json\", got '\(text)'") }
                config.server.logFormat = format
            },
            ConfigSetting("server", "log_level", .string) { config, text, _ in
                let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
                guard levels.contains(text) else { throw InvalidSetting(reason: "must be one of \(levels.joined(separator: ", ")), got '\(text)'") }
                config.server.logLevel = text
            },
            ConfigSetting("database", "path", .string) { config, path, base in
                guard !path.isEmpty else { throw InvalidSetting(reason: "must not be empty") }
                config.database.path = ConfigLoader.absolutePath(path, relativeTo: base)
                config.database.pathIsGiven = true
            },
            ConfigSetting("database", "url", .string) { config, url, _ in
                config.database.postgres = try PostgresAddress(url: url)
            },
            ConfigSetting("database", "password_file", .string) { config, path, base in
                config.database.passwordFile = path.isEmpty ? nil : ConfigLoader.absolutePath(path, relativeTo: base)
            },
            .positive("database", "pool_size", counting: "connections", \.database.poolSize),
            ConfigSetting("database", "trash_days", .integer) { config, days, _ in
                guard days >= 0 else { throw InvalidSetting(reason: "must be 0 (keep the trash) or a number of days") }
                config.database.trashDays = days
            },
            ConfigSetting("database", "backup_dir", .string) { config, path, base in
                config.database.backupDirectory = path.isEmpty ? nil : ConfigLoader.absolutePath(path, relativeTo: base)
            },
            ConfigSetting("database", "backup_every", .string) { config, text, _ in
                let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
                guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0 else {
                    throw InvalidSetting(reason: "must be a duration such as \"30m\", \"24h\" or \"7d\", got '\(text)'")
                }
                config.database.backupEverySeconds = count * unit
            },
            .positive("database", "backup_keep", counting: "backups", \.database.backupKeep),
            .positive("database", "wal_checkpoint_bytes", counting: "bytes", \.database.walCheckpointBytes),
            .positive("database", "cache_bytes", counting: "bytes", \.database.cacheBytes),
        ] + files + hooks + [
            ConfigSetting("auth", "tokens", .strings) { config, tokens, _ in
                guard tokens.allSatisfy(Credential.isSecret) else {
                    throw InvalidSetting(reason: "tokens must be non-empty and contain no spaces")
                }
                config.auth.tokens = tokens
            },
            ConfigSetting("auth", "users", .stringsTable) { config, users, _ in
                config.auth.users = try checkedUsers(users)
            },
            ConfigSetting("auth", "labelled", .stringsTable) { config, users, _ in
                config.auth.labelledUsers = try checkedUsers(users)
            },
            ConfigSetting("auth", "admins", .strings) { config, names, _ in
                try names.forEach(checkUserName)
                config.auth.admins = names
            },
            ConfigSetting("auth", "histories", .string) { config, text, _ in
                guard let mode = HistoriesMode(rawValue: text) else {
                    throw InvalidSetting(reason: "must be \"shared\" (one history for everyone) or \"per-user\", got '\(text)'")
                }
                config.auth.histories = mode
            },
            ConfigSetting("auth", "quota_bytes", .integer) { config, bytes, _ in
                guard bytes >= 0 else { throw InvalidSetting(reason: "must be a number of bytes, 0 for no quota") }
                config.auth.quotaBytes = bytes == 0 ? nil : Int64(bytes)
            },
            ConfigSetting("auth", "quota", .integersTable) { config, quotas, _ in
                for (user, bytes) in quotas {
                    try checkUserName(user)
                    guard bytes > 0 else { throw InvalidSetting(reason: "the quota of '\(user)' must be a positive number of bytes") }
                }
                config.auth.quotas = quotas.mapValues(Int64.init)
            },
            ConfigSetting("auth", "proxy_user_header", .string) { config, name, _ in
                guard name.isEmpty || isHeaderName(name) else {
                    throw InvalidSetting(reason: "'\(name)' is not a header name such as X-Forwarded-User")
                }
                config.auth.proxyUserHeader = name.isEmpty ? nil : name
            },
            ConfigSetting("auth", "unix_peer", .bool) { config, flag, _ in
                config.auth.unixPeer = flag
            },
            ConfigSetting("auth", "sign_out_url", .string) { config, url, _ in
                guard url.isEmpty || url.hasPrefix("https://") || url.hasPrefix("http://") || url.hasPrefix("/") else {
                    throw InvalidSetting(reason: "expected an http:// or https:// URL or a path such as /oauth2/sign_out, got '\(url)'")
                }
                config.auth.signOutURL = url
            },
            ConfigSetting("auth", "token_file", .string) { config, path, base in
                config.auth.tokenFile = path.isEmpty ? nil : ConfigLoader.absolutePath(path, relativeTo: base)
            },
            ConfigSetting("auth", "public_read", .bool) { config, flag, _ in
                config.auth.publicRead = flag
            },
            ConfigSetting("client", "server", .string) { config, url, _ in
                guard url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("unix:/") else {
                    throw InvalidSetting(reason: "expected an http:// or https:// URL, or unix:/path/to/socket, got '\(url)'")
                }
                config.client.server = url
            },
            ConfigSetting("client", "token", .string) { config, token, _ in
                config.client.token = token
            },
            .positive("client", "max_response_bytes", counting: "bytes", \.client.maxResponseBytes),
            .positive("client", "timeout_seconds", counting: "seconds", \.client.timeoutSeconds),
            .positive("client", "max_pages", counting: "pages", \.client.maxPages),
            ConfigSetting("client", "timezone", .string) { config, text, _ in
                config.client.timezone = text.isEmpty ? "" : try zoneName(text)
            },
        ]

    /// Users by name, each with their tokens: names as events show them, tokens a token file could hold.
    private static func checkedUsers(_ users: [String: [String]]) throws -> [String: [String]] {
        for (user, secrets) in users {
            try checkUserName(user)
            guard !secrets.isEmpty, secrets.allSatisfy(Credential.isSecret) else {
                throw InvalidSetting(reason: "the tokens of '\(user)' must be non-empty and contain no spaces")
            }
        }
        return users
    }

    /// A name as events and tables show it, else the error that says what a user name is.
    private static func checkUserName(_ name: String) throws {
        guard Credential.isUserName(name) else { throw InvalidSetting(reason: "user names are \(Credential.userNameRule), got '\(name)'") }
    }

    /// A header's name: one or more of HTTP's token characters.
    private static func isHeaderName(_ name: String) -> Bool {
        let symbols = Set("!#$%&'*+-.^_`|~".utf8)
        return !name.isEmpty
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || symbols.contains($0) }
    }

    /// A whole number above zero, of `unit`s (bytes, seconds…).
    static func positive(
        _ table: String, _ key: String, counting unit: String, _ setting: WritableKeyPath<ShareConfig, Int> & Sendable
    ) -> ConfigSetting {
        ConfigSetting(table, key, .integer) { config, value, _ in
            guard value > 0 else { throw InvalidSetting(reason: "must be a positive number of \(unit)") }
            config[keyPath: setting] = value
        }
    }

    private static func zoneName(_ text: String) throws -> String {
        guard TimeZoneName.zone(text) != nil else {
            throw InvalidSetting(reason: TimeZoneName.refusal(text))
        }
        return text
    }
}
