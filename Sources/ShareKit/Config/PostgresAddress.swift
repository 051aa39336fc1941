import Foundation

/// Where a PostgreSQL database is, from `[database] url`: `postgres://USER@HOST:PORT/DB` over TCP, or
/// `postgresql:///DB?host=/run/postgresql` over the unix socket in that folder. A password is never part of it:
/// it comes from `PGPASSWORD` or `[database] password_file`, so that the URL can be logged and shown.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public enum Place: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file (`FOLDER/.s.PGSQL.PORT`).
        case unixSocket(path: String)
    }

    /// How TLS is used over TCP, as libpq's `sslmode` says; a unix socket never uses it.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it (the default); its certificate is not checked.
        case prefer
        /// Always: a server without TLS is refused; its certificate is not checked.
        case require
        /// Always, with a certificate for the host that an authority trusted here signed (`sslrootcert`, else the
        /// system's).
        case verifyFull = "verify-full"
    }

    public var place: Place
    public var user: String
    public var database: String
    public var tls: TLSMode
    /// `sslrootcert=/path`: the authorities `verify-full` trusts instead of the system's (a PEM file).
    public var trustedAuthorities: String?

    /// The URL as given, which holds no secret.
    public let description: String

    /// The user when the URL names none, as PostgreSQL's own tools choose it: `PGUSER`, else the system user.
    public static var defaultUser: String {
        ProcessInfo.processInfo.environment["PGUSER"] ?? NSUserName()
    }

    /// Parses a URL; the error says what is wrong with it.
    public init(url text: String, defaultUser: String = Self.defaultUser) throws(InvalidSetting) {
        // The URL is not repeated in these messages: a mistyped one may hold a password.
        let url = URLComponents(string: text)
        guard url?.password == nil else {
            throw InvalidSetting(reason: "must not hold the password: give it in PGPASSWORD or [database] password_file")
        }
        guard let url, let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw InvalidSetting(reason: "expected postgres://USER@HOST:PORT/DB or postgresql:///DB?host=/socket/folder")
        }
        let database = String(url.path.dropFirst())
        guard !database.isEmpty, !database.contains("/") else {
            throw InvalidSetting(reason: "names no database: expected postgres://USER@HOST:PORT/DB")
        }
        var socketFolder: String?
        var tls = TLSMode.prefer
        var trustedAuthorities: String?
        for item in url.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("host", let folder) where folder.hasPrefix("/"): socketFolder = folder
            case ("sslmode", let mode) where TLSMode(rawValue: mode) != nil: tls = TLSMode(rawValue: mode)!
            case ("sslrootcert", let file) where file.hasPrefix("/"): trustedAuthorities = file
            case (let name, _) where name.lowercased().contains("password"):
                throw InvalidSetting(reason: "must not hold a password ('\(name)='): give it in PGPASSWORD or [database] password_file")
            default:
                // Only the values of the parameters it takes are repeated: another may be a secret.
                let shown = ["host", "sslmode", "sslrootcert"].contains(item.name) ? "\(item.name)=\(item.value ?? "")" : "\(item.name)=…"
                throw InvalidSetting(
                    reason: "has '\(shown)': the URL takes host=/socket/folder, "
                        + "sslmode=\(TLSMode.allCases.map(\.rawValue).joined(separator: "|")) and sslrootcert=/file.pem only")
            }
        }
        let port = url.port ?? 5432
        guard (1...65_535).contains(port) else { throw InvalidSetting(reason: "has port \(port), expected 1 to 65535") }
        switch (url.host, socketFolder) {
        case (let host?, nil) where !host.isEmpty:
            place = .tcp(host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port)
        case (nil, let folder), ("", let folder):
            place = .unixSocket(path: "\(folder ?? "/run/postgresql")/.s.PGSQL.\(port)")
        default:
            throw InvalidSetting(reason: "names both a host and a socket folder (host=); give one")
        }
        user = url.user.flatMap { $0.removingPercentEncoding } ?? defaultUser
        self.database = database.removingPercentEncoding ?? database
        self.tls = tls
        self.trustedAuthorities = trustedAuthorities
        description = text
    }
}
