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

    public var place: Place
    public var user: String
    public var database: String
    /// `sslmode=require`: refuse a server without TLS. Otherwise TLS is used over TCP when the server offers it.
    public var requiresTLS: Bool

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
        var requiresTLS = false
        for item in url.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("host", let folder) where folder.hasPrefix("/"): socketFolder = folder
            case ("sslmode", "require"): requiresTLS = true
            case ("sslmode", "prefer"), ("sslmode", "disable"): break
            default:
                throw InvalidSetting(
                    reason: "has '\(item.name)=\(item.value ?? "")': the URL takes host=/socket/folder and sslmode=require|prefer|disable only")
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
        self.requiresTLS = requiresTLS
        description = text
    }
}
