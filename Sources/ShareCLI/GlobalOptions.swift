import ArgumentParser

/// Options every command takes, before or after its name (`share --json ls` or `share ls --json`): the root
/// command declares them for what comes before a command's name, each command for what comes after.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The server: http://host:port[/base], https://…, or unix:/path (default: $SHARE_SERVER, share.toml, 127.0.0.1:8080).")
    var server: String?

    @Option(help: "Bearer token for the server (default from share.toml or $SHARE_TOKEN).")
    var token: String?

    @Option(help: "Path to share.toml (default: $SHARE_CONFIG, ./share.toml, $XDG_CONFIG_HOME/share/share.toml, /etc/share/share.toml).")
    var config: String?

    @Option(help: "Act on this user's history instead of your own (admins, under per-user histories).")
    var user: String?

    @Option(help: "IANA time zone for dates shown and --date (default: [client] timezone, else the system zone).")
    var tz: String?

    @Flag(help: "Print the server's JSON exactly, for scripts.")
    var json = false

    @Option(help: "Colour the output: auto (only on a terminal), always or never. NO_COLOR turns it off.")
    var color: ColorChoice?

    /// These options where given, else those given before the command's name.
    func overriding(_ earlier: GlobalOptions) -> GlobalOptions {
        var merged = self
        merged.server = server ?? earlier.server
        merged.token = token ?? earlier.token
        merged.config = config ?? earlier.config
        merged.user = user ?? earlier.user
        merged.tz = tz ?? earlier.tz
        merged.json = json || earlier.json
        merged.color = color ?? earlier.color
        return merged
    }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
