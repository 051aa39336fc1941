import ArgumentParser
import ShareHistory
import ShareKit

/// The database a command works on: `--db` (a SQLite file), else the configuration's `[database]`.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "Path to share.toml.")
    var config: String?

    @Option(help: "SQLite database file (overrides [database] path and url).")
    var db: String?

    /// The configuration's `[files]`.
    func files() throws -> FilesSettings {
        do {
            return try ConfigLoader().load(explicitPath: config).files
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The configuration's `[database]`, with `--db` on top.
    func settings() throws -> DatabaseSettings {
        let loader = ConfigLoader()
        do {
            var settings = try loader.load(explicitPath: config).database
            if let db {
                settings.path = ConfigLoader.absolutePath(db, relativeTo: loader.workingDirectory)
                settings.postgres = nil
            }
            return settings
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The SQLite file `command` works on; an error when the history is in PostgreSQL, which keeps its own files.
    func sqlitePath(for command: String) throws -> String {
        let settings = try settings()
        if let postgres = settings.postgres {
            throw ValidationError(
                "shared \(command) works on a SQLite file, and this configuration's history is in PostgreSQL (\(postgres)); give --db for a SQLite file"
            )
        }
        return settings.path
    }

    /// Runs `body` with the configured store, opened and migrated as `shared` would (SQLite: taking its file's lock).
    func withStore<T: Sendable>(_ body: @Sendable (any ShareStore) async throws -> T) async throws -> T {
        try await StoreChoice.withStore(try settings(), body)
    }
}
