extension ConfigSetting {
    /// The keys of `[hooks]`.
    static let hooks: [ConfigSetting] = [
        ConfigSetting("hooks", "allow_private_addresses", .bool) { config, flag, _ in
            config.hooks.allowPrivateAddresses = flag
        },
        ConfigSetting("hooks", "retry_seconds", .integers) { config, waits, _ in
            guard !waits.isEmpty, waits.count <= 30, waits.allSatisfy({ (1...604_800).contains($0) }) else {
                throw InvalidSetting(reason: "expected 1 to 30 waits in seconds, each from 1 to 604800 (a week), such as [5, 300, 1800]")
            }
            config.hooks.retrySeconds = waits
        },
        ConfigSetting("hooks", "timeout_seconds", .integer) { config, seconds, _ in
            guard (1...300).contains(seconds) else { throw InvalidSetting(reason: "must be from 1 to 300 seconds") }
            config.hooks.timeoutSeconds = seconds
        },
        .positive("hooks", "max_per_user", counting: "hooks", \.hooks.maxPerUser),
    ]
}
