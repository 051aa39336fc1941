import Foundation
import TOMLKit

/// Finds `share.toml` and builds a `ShareConfig` from it and from `SHARE_*` variables.
///
/// Lookup: the explicit path, `$SHARE_CONFIG`, `./share.toml`, `$XDG_CONFIG_HOME/share/share.toml`,
/// `/etc/share/share.toml`. Precedence: flags (applied by the caller) > environment > file > defaults.
public struct ConfigLoader: Sendable {
    public var environment: [String: String]
    public var workingDirectory: String

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    public func load(explicitPath: String? = nil) throws(ConfigError) -> ShareConfig {
        let file = try locateFile(explicitPath: explicitPath)
        var config = ShareConfig(database: DatabaseSettings(path: defaultDatabasePath), file: file)
        if let file {
            try apply(fileAt: file, to: &config)
        }
        try applyEnvironment(to: &config)
        if let postgres = config.database.postgres, config.database.pathIsGiven {
            throw ConfigError(
                "[database] gives both path (\(config.database.path), SQLite) and url (\(postgres), PostgreSQL): keep the one the history is in")
        }
        try config.files.check(environment: environment)
        return config
    }

    /// The config file to read, or nil when none exists; a file named explicitly must exist.
    public func locateFile(explicitPath: String?) throws(ConfigError) -> String? {
        for (path, source) in [(explicitPath, "--config"), (environment["SHARE_CONFIG"], "SHARE_CONFIG")] {
            guard let path, !path.isEmpty else { continue }
            let absolute = Self.absolutePath(path, relativeTo: workingDirectory)
            guard FileManager.default.fileExists(atPath: absolute) else {
                throw ConfigError("config file \(absolute) (from \(source)) does not exist")
            }
            return absolute
        }
        let candidates = [
            Self.absolutePath("share.toml", relativeTo: workingDirectory),
            "\(configHome)/share/share.toml",
            "/etc/share/share.toml",
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `$XDG_DATA_HOME/share/share.db`, the database when no config file names one.
    public var defaultDatabasePath: String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/share"
        return "\(dataHome)/share/share.db"
    }

    private var configHome: String {
        environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.config"
    }

    private var home: String {
        environment["HOME"] ?? NSHomeDirectory()
    }

    private func apply(fileAt path: String, to config: inout ShareConfig) throws(ConfigError) {
        let text: String
        let root: TOMLTable
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read config file \(path): \(error.localizedDescription)")
        }
        do {
            try Self.checkTableHeaders(text, path: path)
            root = try TOMLTable(string: text)
        } catch let error as ConfigError {
            throw error
        } catch let error as TOMLParseError {
            throw ConfigError("\(path), line \(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigError("\(path): not valid TOML")
        }
        let baseDirectory = (path as NSString).deletingLastPathComponent
        for tableName in root.keys.sorted() {
            guard let table = root[tableName]?.table, Self.tables.contains(tableName) else {
                let kind = Self.tables.contains(tableName) ? "must be a table" : "is not a known key"
                throw ConfigError("\(path): '\(tableName)' \(kind) (known tables: \(Self.tables.joined(separator: ", ")))")
            }
            for key in table.keys.sorted() {
                guard let setting = ConfigSetting.all.first(where: { $0.table == tableName && $0.key == key }) else {
                    throw ConfigError("\(path): unknown key '\(tableName).\(key)'")
                }
                try store(in: &config, setting: setting, from: path) { config in
                    try setting.applyTOML(&config, table[key]!, baseDirectory)
                }
            }
        }
    }

    private func applyEnvironment(to config: inout ShareConfig) throws(ConfigError) {
        for setting in ConfigSetting.all {
            guard let text = environment[setting.environmentVariable] else { continue }
            try store(in: &config, setting: setting, from: "$\(setting.environmentVariable)") {
                try setting.applyText(&$0, text, workingDirectory)
            }
        }
    }

    /// Runs one setting's store and turns its failures into errors that name the key and where it came from.
    private func store(
        in config: inout ShareConfig, setting: ConfigSetting, from source: String,
        _ apply: (inout ShareConfig) throws -> Bool
    ) throws(ConfigError) {
        do {
            guard try apply(&config) else {
                throw ConfigError("\(source): '\(setting.name)' must be \(setting.expected)")
            }
        } catch let error as ConfigError {
            throw error
        } catch let error as InvalidSetting {
            throw ConfigError("\(source): '\(setting.name)' \(error.reason)")
        } catch {
            throw ConfigError("\(source): '\(setting.name)': \(error)")
        }
    }

    private static let tables = ["server", "database", "files", "hooks", "auth", "client"]

    /// The TOML parser asserts, instead of reporting, on some malformed table headers (found by `FuzzTests`):
    /// a header must be one line of `[name]` or `[name.name]` (ASCII names, quotes, spaces), else it is refused
    /// here first, by line. Read as Unicode scalars: a `[` followed by a combining mark is one `Character`.
    private static func checkTableHeaders(_ text: String, path: String) throws(ConfigError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.\"' \t".unicodeScalars)
        let blank: Set<Unicode.Scalar> = [" ", "\t", "\r"]
        for (number, line) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: blank.contains)
            guard trimmed.first == "[" else { continue }
            var header = trimmed.prefix { $0 != "#" }
            while let last = header.last, blank.contains(last) { header = header.dropLast() }
            let name = header.drop { $0 == "[" }.reversed().drop { $0 == "]" }
            guard header.last == "]", name.contains(where: { !blank.contains($0) }), name.allSatisfy(allowed.contains) else {
                throw ConfigError("\(path), line \(number + 1): a table header is one line such as [server] or [auth.users]")
            }
        }
    }

    /// Resolves `path` against `base` unless it is absolute; `~/` means the home folder.
    public static func absolutePath(_ path: String, relativeTo base: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let joined = expanded.hasPrefix("/") ? expanded : "\(base)/\(expanded)"
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }
}
