import ArgumentParser
import Foundation
import Logging
import ShareKit
import ShareServer

/// `shared`: the daemon that keeps the share history and serves it over HTTP (`serve`, the default), and backs
/// it up and restores it.
@main
struct SharedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared",
        abstract: "Keep the share history and serve it over HTTP; back it up, restore, check and migrate it.",
        discussion: """
            Reads share.toml from --config, $SHARE_CONFIG, ./share.toml, $XDG_CONFIG_HOME/share/share.toml \
            or /etc/share/share.toml; flags override SHARE_* variables, which override the file.

            Examples:
              shared                                  serve with share.toml or the defaults
              shared --listen 127.0.0.1:9000 --db /tmp/share.db
              shared --check-config --config /etc/share/share.toml
              shared backup --to /backups/share-2026-11-22.db
              shared restore --from /backups/share-2026-11-22.db
              shared check
              shared assign --to alice
              shared migrate --to postgres://share@db.internal/share

            The history is a SQLite file ([database] path), or a PostgreSQL database ([database] url) that \
            several shared behind a balancer serve together.
            """,
        version: ShareVersion.current,
        subcommands: [
            ServeCommand.self, BackupCommand.self, RestoreCommand.self, CheckCommand.self, AssignCommand.self, MigrateCommand.self,
            FilesCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}

/// `shared serve` (or `shared` alone): serve until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the share history over HTTP (the default).")

    @Option(help: "Path to share.toml.")
    var config: String?

    @Option(help: "Address to listen on: host:port, [IPv6]:port or unix:/path (overrides [server] listen).")
    var listen: String?

    @Option(help: "SQLite database file (overrides [database] path).")
    var db: String?

    @Flag(help: "Validate the configuration, print what would be used, and exit.")
    var checkConfig = false

    func run() async throws {
        try await runDaemon(setup: try checkedSetup(), checkOnly: checkConfig, openStore: StoreChoice.open)
    }

    /// The settings, or a usage error that says what is wrong with them.
    private func checkedSetup() throws -> ServerSetup {
        do {
            return try ServerSetup(config: try loadConfig())
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The configuration from file and environment, with this command's flags on top.
    private func loadConfig() throws -> ShareConfig {
        let loader = ConfigLoader()
        var config = try loader.load(explicitPath: config)
        if let listen {
            guard let address = ListenAddress(listen) else {
                throw ConfigError("--listen: expected host:port, [IPv6]:port or unix:/absolute/path, got '\(listen)'")
            }
            config.server.listen = address
        }
        if let db {
            config.database.path = ConfigLoader.absolutePath(db, relativeTo: loader.workingDirectory)
            config.database.pathIsGiven = true
            config.database.postgres = nil
        }
        return config
    }
}
