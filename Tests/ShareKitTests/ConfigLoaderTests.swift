import Foundation
import ShareKit
import ShareTestSupport
import Testing

@Suite struct ConfigLoaderTests {
    let root: String

    init() throws {
        root = try temporaryFolder("config").path
        try FileManager.default.createDirectory(atPath: "\(root)/work", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(root)/xdg/share", withIntermediateDirectories: true)
    }

    private func write(_ text: String, to relative: String) throws -> String {
        let path = "\(root)/\(relative)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func loader(_ environment: [String: String] = [:]) -> ConfigLoader {
        ConfigLoader(environment: ["HOME": "\(root)/home"].merging(environment) { $1 }, workingDirectory: "\(root)/work")
    }

    /// `[database] url` selects PostgreSQL over TCP or a unix socket; a config naming both stores, a URL holding its
    /// password, or one that names no database is refused with a message naming the setting.
    @Test func aPostgresURLSelectsPostgreSQLAndIsCheckedLikeAnyOtherSetting() throws {
        _ = try write("[database]\nurl = \"postgres://share@db.internal:5433/history\"\npool_size = 4\n", to: "work/share.toml")
        let tcp = try loader().load().database
        #expect(tcp.postgres?.place == .tcp(host: "db.internal", port: 5433))
        #expect(tcp.postgres?.user == "share" && tcp.postgres?.database == "history" && tcp.poolSize == 4)
        let socket = try loader(["SHARE_DATABASE_URL": "postgresql:///history?host=/run/pg"]).load().database.postgres
        #expect(socket?.place == .unixSocket(path: "/run/pg/.s.PGSQL.5432"))

        _ = try write("[database]\npath = \"share.db\"\nurl = \"postgres://share@db/history\"\n", to: "work/share.toml")
        #expect(throws: ConfigError.self) { try loader().load() }
        _ = try write("[database]\npath = \"share.db\"\n", to: "work/share.toml")
        #expect(throws: ConfigError.self, "a path in the file and a URL in the environment name two stores too") {
            try loader(["SHARE_DATABASE_URL": "postgres://share@db/history"]).load()
        }
        for (url, complaint) in [
            ("postgres://share:secret@db/history", "PGPASSWORD"), ("postgres://share@db", "names no database"),
            ("mysql://share:secret@db/history", "PGPASSWORD"), ("mysql://share@db/history", "expected postgres://"),
            ("postgres://share@db/history?sslmode=verify", "sslmode"),
            ("postgres://share@db/history?password=secret", "PGPASSWORD"), ("postgres://share@db/history?sslpassword=secret", "PGPASSWORD"),
            ("postgres://share@db/history?application_name=secret", "application_name=…"),
        ] {
            do {
                _ = try loader(["SHARE_DATABASE_URL": url]).load()
                Issue.record("\(url) was accepted")
            } catch {
                #expect(error.description.contains("SHARE_DATABASE_URL") && error.description.contains(complaint), "\(error)")
                #expect(!error.description.contains("secret"), "a password is never repeated")
            }
        }
    }

    @Test func connectionAndResponseLimitsAreReadAndChecked() throws {
        _ = try write(
            "[server]\nmax_connections = 50\nidle_timeout_seconds = 5\n[client]\nmax_response_bytes = 1000\ntimeout_seconds = 2\n",
            to: "work/share.toml")
        let config = try loader().load()
        #expect(config.server.maxConnections == 50 && config.server.idleTimeoutSeconds == 5)
        #expect(config.client.maxResponseBytes == 1000 && config.client.timeoutSeconds == 2)
        for (variable, value) in [
            ("SHARE_SERVER_MAX_CONNECTIONS", "0"), ("SHARE_SERVER_IDLE_TIMEOUT_SECONDS", "-1"), ("SHARE_MAX_RESPONSE_BYTES", "lots"),
            ("SHARE_TIMEOUT_SECONDS", "0"), ("SHARE_AUTH_PUBLIC_READ", "1"), ("SHARE_TIMEZONE", "UTC+5"), ("SHARE_SERVER_TIMEZONE", "GMT-0330"),
        ] {
            #expect(throws: ConfigError.self, "\(variable)=\(value)") { try loader([variable: value]).load() }
            do {
                _ = try loader([variable: value]).load()
            } catch {
                #expect(error.description.contains(variable))
            }
        }
    }

    @Test func withoutAnyFileTheDatabaseLivesInTheXDGDataFolder() throws {
        let config = try loader().load()
        #expect(config.file == nil)
        #expect(config.database.path == "\(root)/home/.local/share/share/share.db")
        #expect(config.server.listen == .tcp(host: "127.0.0.1", port: 8080))
        #expect(try loader(["XDG_DATA_HOME": "/data"]).load().database.path == "/data/share/share.db")
    }

    @Test func relativePathsInAFileAreRelativeToThatFilesFolder() throws {
        let file = try write("[database]\npath = \"db/history.db\"\n[auth]\ntoken_file = \"tokens\"\n", to: "xdg/share/share.toml")
        let config = try loader(["XDG_CONFIG_HOME": "\(root)/xdg"]).load()
        #expect(config.file == file)
        #expect(config.database.path == "\(root)/xdg/share/db/history.db")
        #expect(config.auth.tokenFile == "\(root)/xdg/share/tokens")
    }

    @Test func theWorkingDirectoryFileWinsOverTheXDGOne() throws {
        _ = try write("[server]\ntimezone = \"Asia/Tokyo\"\n", to: "xdg/share/share.toml")
        _ = try write("[server]\ntimezone = \"Europe/Paris\"\n", to: "work/share.toml")
        #expect(try loader(["XDG_CONFIG_HOME": "\(root)/xdg"]).load().server.timezone == "Europe/Paris")
    }

    @Test func anExplicitPathWinsAndMustExist() throws {
        _ = try write("[server]\ntimezone = \"Europe/Paris\"\n", to: "work/share.toml")
        let chosen = try write("[server]\ntimezone = \"Asia/Tokyo\"\n", to: "chosen.toml")
        #expect(try loader().load(explicitPath: chosen).server.timezone == "Asia/Tokyo")
        #expect(try loader(["SHARE_CONFIG": chosen]).load().server.timezone == "Asia/Tokyo")
        let error = #expect(throws: ConfigError.self) { try loader().load(explicitPath: "\(root)/missing.toml") }
        #expect(error?.description.contains("missing.toml") == true)
    }

    @Test func environmentOverridesTheFile() throws {
        _ = try write(
            "[server]\nlisten = \"127.0.0.1:9000\"\n[auth]\ntokens = [\"a\"]\n[client]\nserver = \"http://file:1\"\n",
            to: "work/share.toml")
        let config = try loader([
            "SHARE_SERVER_LISTEN": "unix:/tmp/s.sock", "SHARE_AUTH_TOKENS": "x, y", "SHARE_AUTH_PUBLIC_READ": "true",
            "SHARE_SERVER": "http://env:2", "SHARE_DATABASE_PATH": "rel.db",
        ]).load()
        #expect(config.server.listen == .unix(path: "/tmp/s.sock"))
        #expect(config.auth.tokens == ["x", "y"])
        #expect(config.auth.publicRead)
        #expect(config.client.server == "http://env:2")
        #expect(config.database.path == "\(root)/work/rel.db")
    }

    @Test func theRepositoryExampleLoadsAsIs() throws {
        let example = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../share.toml").standardized.path
        let config = try loader().load(explicitPath: example)
        #expect(config.server.listen == .tcp(host: "127.0.0.1", port: 8080))
        #expect(config.database.path.hasSuffix("/share.db"))
    }

    @Test(arguments: [
        ("[server]\nlisen = \"127.0.0.1:1\"\n", "server.lisen"),
        ("[servr]\nlisten = \"127.0.0.1:1\"\n", "servr"),
        ("server = 1\n", "server"),
        ("[server]\nlisten = 8080\n", "server.listen"),
        ("[server]\nlisten = \"nowhere\"\n", "server.listen"),
        ("[server]\nmax_body_bytes = \"1MB\"\n", "server.max_body_bytes"),
        ("[server]\nmax_body_bytes = 0\n", "server.max_body_bytes"),
        ("[server]\ntimezone = \"Mars/Olympus\"\n", "server.timezone"),
        ("[server]\nbase_path = \"files\"\n", "server.base_path"),
        ("[server]\ntrusted_proxies = [\"10.0.0.0/40\"]\n", "server.trusted_proxies"),
        ("[server]\ntrusted_proxies = [1]\n", "server.trusted_proxies"),
        ("[auth]\npublic_read = \"yes\"\n", "auth.public_read"),
        ("[auth]\ntokens = \"secret\"\n", "auth.tokens"),
        ("[auth]\nhistories = \"mine\"\n", "auth.histories"),
        ("[server]\nheavy_reads = 9\n", "server.heavy_reads"),
        ("[server]\nshare_url = \"https://files.example.org/s/\"\n", "server.share_url"),
        ("[server]\nshare_url = \"javascript:alert({id})\"\n", "server.share_url"),
        ("[server]\nshare_url = \"https://files.example.org/s/{token}\\\"><b>\"\n", "server.share_url"),
        ("[server]\nservice_name = \"\"\n", "server.service_name"),
        ("[server]\nservice_name = \"Files\\u001B[2J\"\n", "server.service_name"),
        ("[server]\nheavy_wait_seconds = 0\n", "server.heavy_wait_seconds"),
        ("[auth]\nquota_bytes = -1\n", "auth.quota_bytes"),
        ("[auth.quota]\n\"bob smith\" = 10\n", "auth.quota"),
        ("[auth.quota]\nbob = \"10GB\"\n", "auth.quota"),
        ("[client]\nserver = \"ftp://x\"\n", "client.server"),
        ("[files]\nstore = \"disk\"\n", "files.store"),
        ("[files]\ns3_endpoint = \"s3.example.org\"\n", "files.s3_endpoint"),
        ("[files]\ns3_endpoint = \"https://s3.example.org/bucket\"\n", "files.s3_endpoint"),
        ("[files]\ns3_bucket = \"Share_Files\"\n", "files.s3_bucket"),
        ("[files]\ns3_region = \"EU Central\"\n", "files.s3_region"),
        ("[files]\ns3_prefix = \"/share\"\n", "files.s3_prefix"),
        ("[files]\ndownloads = \"cdn\"\n", "files.downloads"),
        ("[files]\ndownloads = \"redirect\"\n", "store = \"s3\""),
        ("[files]\nstore = \"s3\"\ns3_bucket = \"share-files\"\n", "s3_endpoint"),
        ("[files]\nstore = \"s3\"\ns3_endpoint = \"http://127.0.0.1:8333\"\n", "s3_bucket"),
        ("[files]\nstore = \"s3\"\ns3_endpoint = \"http://s3\"\ns3_bucket = \"share\"\ns3_access_key_id = \"k\"\n", "s3_secret_access_key_file"),
        ("[server\n", "line 1"),
    ])
    func aBadFileIsAnErrorThatNamesTheKey(text: String, key: String) throws {
        let file = try write(text, to: "bad.toml")
        let error = #expect(throws: ConfigError.self) { try loader().load(explicitPath: file) }
        #expect(error?.description.contains(key) == true, "\(error?.description ?? "")")
    }

    /// `[files]` for a bucket: each key read, the prefix made a folder, and the credentials taken from a key file or
    /// the environment, an unreadable or missing one refused with a line that never shows a secret.
    @Test func anObjectStoreIsConfiguredWithItsCredentialsFromAFileOrTheEnvironment() throws {
        let secret = try write("s3cr3t-key\n", to: "work/s3-secret")
        _ = try write(
            """
            [files]
            store = "s3"
            s3_endpoint = "http://127.0.0.1:8333"
            s3_bucket = "share-files"
            s3_region = "eu-central-1"
            s3_prefix = "team"
            s3_path_style = true
            s3_access_key_id = "share"
            s3_secret_access_key_file = "s3-secret"
            downloads = "redirect"
            """, to: "work/share.toml")
        let files = try loader().load().files
        #expect(files.store == .s3 && files.s3Endpoint == "http://127.0.0.1:8333" && files.s3Bucket == "share-files")
        #expect(files.s3Region == "eu-central-1" && files.s3Prefix == "team/" && files.s3PathStyle && files.downloads == .redirect)
        #expect(files.s3SecretAccessKeyFile == secret)
        #expect(try files.s3Credentials(environment: [:]) == ("share", "s3cr3t-key"))
        try FileManager.default.removeItem(atPath: secret)
        let unreadable = #expect(throws: ConfigError.self) { try files.s3Credentials(environment: [:]) }
        #expect(unreadable?.description.contains("s3_secret_access_key_file") == true)

        _ = try write("[files]\nstore = \"s3\"\ns3_endpoint = \"https://s3.example.org\"\ns3_bucket = \"share\"\n", to: "work/share.toml")
        let keys = ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "key"]
        let fromEnvironment = try loader(keys).load().files
        #expect(try fromEnvironment.s3Credentials(environment: keys) == ("id", "key"))
        let none = #expect(throws: ConfigError.self, "no key is a configuration error, found before the start") {
            try loader(["AWS_ACCESS_KEY_ID": "id"]).load()
        }
        #expect(none?.description.contains("AWS_SECRET_ACCESS_KEY") == true)
        #expect(try loader(["SHARE_FILES_STORE": "local"]).load().files.store == .local, "the environment wins")
    }

    @Test func aBadVariableIsAnErrorThatNamesTheVariable() {
        let error = #expect(throws: ConfigError.self) { try loader(["SHARE_SERVER_MAX_BODY_BYTES": "lots"]).load() }
        #expect(error?.description.contains("SHARE_SERVER_MAX_BODY_BYTES") == true)
    }

    @Test func basePathsAreNormalised() throws {
        let file = try write("[server]\nbase_path = \"/files/\"\n", to: "base.toml")
        #expect(try loader().load(explicitPath: file).server.basePath == "/files")
    }
}
