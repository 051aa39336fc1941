/// Everything `share.toml` can say, after the lookup and precedence rules have been applied.
///
/// One file serves both programs: `shared` reads `server`, `database`, `files`, `hooks` and `auth`; `share` reads `client`.
public struct ShareConfig: Sendable, Equatable {
    public var server = ServerSettings()
    public var database: DatabaseSettings
    public var files = FilesSettings()
    public var hooks = HooksSettings()
    public var auth = AuthSettings()
    public var client = ClientSettings()
    /// The file the settings were read from; nil when none was found and defaults apply.
    public var file: String?

    public init(database: DatabaseSettings, file: String? = nil) {
        self.database = database
        self.file = file
    }
}

/// `[server]`: how `shared` listens and interprets requests.
public struct ServerSettings: Sendable, Equatable {
    public var listen = ListenAddress.tcp(host: "127.0.0.1", port: 8080)
    /// Where a reverse proxy mounts the API; every route lives under it. `/` or `/a/b`, no trailing slash.
    public var basePath = "/"

    /// `basePath` as a prefix of the paths the server writes (`Location`, `Link`): `""` at the root, `/files`.
    public var pathPrefix: String { basePath == "/" ? "" : basePath }
    /// The zone of `date`, `from` and `to` when a request gives no `tz`.
    public var timezone = "UTC"
    public var trustedProxies = [IPAddressRange("127.0.0.1/32")!, IPAddressRange("::1/128")!]
    public var maxBodyBytes = 1_048_576
    /// The largest picture a thumbnail is made from (`PUT /share/{id}/thumbnail`).
    public var maxPictureBytes = 20_971_520
    /// The largest file one upload may hold (413 past it).
    public var maxUploadBytes = 10_737_418_240
    /// Uploads receiving bytes at once at most; past it, 503 with `Retry-After`.
    public var maxUploads = 16
    /// Open connections at most; past it, the connection idle the longest makes way for a new one.
    public var maxConnections = 1000
    /// A connection with no request in progress (or a request that stopped arriving) is closed after this long.
    public var idleTimeoutSeconds = 60
    /// A request's body must have arrived this long after its head (imports excepted: they stream).
    public var requestTimeoutSeconds = 30
    /// An import's body must keep arriving at this many bytes a second at least, over each 10 seconds.
    public var minUploadRate = 1024
    /// Host names answered besides the ones the daemon listens on, when no sign-in is configured (a name the
    /// machine is known by on the local network, say). Lower-case, without a port.
    public var allowedHosts: [String] = []
    /// The service's link for a share, `{id}` standing for its id (`https://files.example.org/s/{id}`): what the
    /// page copies and `share show` prints. Empty: shares have no link, and the page copies the bare id.
    public var shareURL = ""
    /// The service's name, as a link's recipient sees it on its page.
    public var serviceName = "Share"
    /// `/metrics` needs no token (for a scraper on a private network).
    public var metricsPublic = false
    /// Permissions of the unix socket, as an octal number such as `0660`.
    public var socketMode: UInt16 = 0o660
    public var logFormat = LogFormat.text
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    public var logLevel = "info"
    /// How long SIGTERM waits for requests in flight before it cuts them off.
    public var shutdownSeconds = 10
    /// Heavy reads (listings, statistics, exports past a few milliseconds of work) that run at once; 0: half the
    /// cores, at least one, at most four (fewer than the database's five readers).
    public var heavyReads = 0
    /// How long a heavy read waits for its turn before it is refused with 503 and `Retry-After`.
    public var heavyWaitSeconds = 5

    public init() {}
}

/// How `shared` writes its log lines.
public enum LogFormat: String, CaseIterable, Sendable {
    /// `2026-11-22T20:06:04+0000 info shared: key=value … message`, for people.
    case text
    /// One JSON object a line, for log collectors.
    case json
}

/// `[database]`: where the history is kept: a SQLite file (`path`), or a PostgreSQL database (`url`).
public struct DatabaseSettings: Sendable, Equatable {
    /// An absolute path: relative paths were resolved against the config file's folder or the working directory.
    public var path: String
    /// Set when `path` was given (in the file, the environment or by `--db`) rather than defaulted: a
    /// configuration that gives `url` too is refused.
    public var pathIsGiven = false
    /// `[database] url`: the history is in this PostgreSQL database instead of the SQLite file.
    public var postgres: PostgresAddress?
    /// A file holding PostgreSQL's password (its first line), read when `shared` starts; else `PGPASSWORD`.
    public var passwordFile: String?
    /// At most this many connections to PostgreSQL from one `shared`.
    public var poolSize = 10
    /// Records in the trash longer than this many days are purged (by the daemon, at start and hourly); 0 keeps
    /// the trash forever.
    public var trashDays = 30
    /// Where the daemon writes its automatic backups; nil: none.
    public var backupDirectory: String?
    /// Seconds between automatic backups (`backup_every = "24h"`).
    public var backupEverySeconds = 86_400
    /// How many automatic backups are kept; older ones are deleted.
    public var backupKeep = 7
    /// A write-ahead log larger than this is checkpointed and started over, and SQLite truncates it back to this
    /// size after a spike (`journal_size_limit`).
    public var walCheckpointBytes = 32 * 1_048_576
    /// The memory SQLite's page caches take together, all connections counted: past it, a connection reuses its
    /// least recently used pages rather than taking more (SQLite's soft heap limit).
    public var cacheBytes = 24 * 1_048_576

    public init(path: String) {
        self.path = path
    }
}

/// `[auth]`: who may call the API.
public struct AuthSettings: Sendable, Equatable {
    /// Tokens without a user: users `token-1`, `token-2`… by position.
    public var tokens: [String] = []
    /// Each user's tokens (`[auth.users] alice = "SECRET"`, or a list of them).
    public var users: [String: [String]] = [:]
    /// Users given under `[auth.labelled]`, the table's earlier name, read as `[auth.users]`; the daemon says so once.
    public var labelledUsers: [String: [String]] = [:]
    /// Users who may act on another user's history (`?user=NAME`) and list every user (`GET /users`).
    public var admins: [String] = []
    /// One history for everyone, or one per user.
    public var histories = HistoriesMode.shared
    /// The bytes of live records a user may hold unless `quotas` names them; nil: no limit.
    public var quotaBytes: Int64?
    /// Each named user's own quota (`[auth.quota] alice = 5000000000`).
    public var quotas: [String: Int64] = [:]
    /// The header a trusted reverse proxy names the signed-in user in (`X-Forwarded-User`); nil: none.
    public var proxyUserHeader: String?
    /// A unix socket's peer (the Unix user of the process that connected) is the user.
    public var unixPeer = false
    /// Where the page's *Sign out* goes under proxy sign-in (the proxy's own sign-out); empty: nowhere.
    public var signOutURL = ""
    /// An absolute path to a file of tokens, one a line; read by `shared` when it starts.
    public var tokenFile: String?
    /// Lets GET requests through without a token.
    public var publicRead = false

    public init() {}

    /// The quota of `user`'s live records in bytes, nil when they have none.
    public func quota(of user: String) -> Int64? {
        quotas[user] ?? quotaBytes
    }
}

/// `[auth] histories`: whose records a request reads and changes.
public enum HistoriesMode: String, Sendable, CaseIterable {
    /// Every user reads and changes one history; events name who did what.
    case shared
    /// Each user reads and changes only their own records.
    case perUser = "per-user"
}

/// `[client]`: where `share` finds the server.
public struct ClientSettings: Sendable, Equatable {
    public var server = "http://127.0.0.1:8080"
    public var token = ""
    /// Empty means the system zone.
    public var timezone = ""
    /// The largest response `share` reads into memory (a listing page, a record); streamed exports are not held.
    public var maxResponseBytes = 16 * 1_048_576
    /// How long a request may take, or a streamed transfer may stall, before `share` gives up on the server.
    public var timeoutSeconds = 60
    /// The most pages `share` follows through one listing (`--all`, `log`) before it stops with an error.
    public var maxPages = 100_000

    public init() {}
}
