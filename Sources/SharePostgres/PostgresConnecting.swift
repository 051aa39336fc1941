import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    /// The pool's configuration for the database at `address`, with `password` (nil: none) and at most `poolSize`
    /// connections; over TCP, TLS as `sslmode` says (none over a socket).
    public static func clientConfiguration(_ address: PostgresAddress, password: String?, poolSize: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch address.place {
        case .tcp(let host, let port):
            configuration = PostgresClient.Configuration(
                host: host, port: port, username: address.user, password: password, database: address.database, tls: tls(address))
        case .unixSocket(let path):
            configuration = PostgresClient.Configuration(
                unixSocketPath: path, username: address.user, password: password, database: address.database)
        }
        configuration.options.maximumConnections = poolSize
        // A connection that cannot be made soon is a database that is down: requests say so (503) rather than wait.
        configuration.options.connectTimeout = .seconds(5)
        // A statement whose node has gone (killed in the middle of a read) is stopped within a second, not run to its end.
        // No JIT: it compiles a statement whose estimate passes `jit_above_cost` (statistics' reads of a few thousand
        // total rows, estimated at many more), 10 ms spent to save none.
        configuration.options.additionalStartupParameters = [("client_connection_check_interval", "1000"), ("jit", "off")]
        return configuration
    }

    /// TLS as libpq's `sslmode` has it: `prefer` and `require` encrypt without checking the server's certificate,
    /// `verify-full` checks it against the trusted authorities and the host's name.
    private static func tls(_ address: PostgresAddress) -> PostgresClient.Configuration.TLS {
        switch tlsSettings(address) {
        case (_, nil): return .disable
        case (true, let settings?): return .require(settings)
        case (false, let settings?): return .prefer(settings)
        }
    }

    /// Whether `sslmode` requires TLS, and with what settings (nil: none).
    private static func tlsSettings(_ address: PostgresAddress) -> (required: Bool, settings: TLSConfiguration?) {
        var settings = TLSConfiguration.makeClientConfiguration()
        switch address.tls {
        case .disable: return (false, nil)
        case .prefer, .require:
            settings.certificateVerification = .none
            return (address.tls == .require, settings)
        case .verifyFull:
            if let file = address.trustedAuthorities { settings.trustRoots = .file(file) }
            return (true, settings)
        }
    }

    /// Why no connection to `address` can be made, in a sentence for a person (nil when one can): the pool only
    /// keeps trying, so a database refusing the sign-in (a wrong password) would otherwise read as one that does
    /// not answer.
    public static func whyNoConnection(_ address: PostgresAddress, password: String?, logger: Logger) async -> String? {
        do {
            var configuration: PostgresConnection.Configuration
            switch address.place {
            case .tcp(let host, let port):
                let tls: PostgresConnection.Configuration.TLS =
                    switch tlsSettings(address) {
                    case (_, nil): .disable
                    case (true, let settings?): .require(try NIOSSLContext(configuration: settings))
                    case (false, let settings?): .prefer(try NIOSSLContext(configuration: settings))
                    }
                configuration = .init(host: host, port: port, username: address.user, password: password, database: address.database, tls: tls)
            case .unixSocket(let path):
                configuration = .init(unixSocketPath: path, username: address.user, password: password, database: address.database)
            }
            configuration.options.connectTimeout = .seconds(5)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
            return nil
        } catch let error as PSQLError where ["28P01", "28000"].contains(error.serverInfo?[.sqlState] ?? "") {
            return "PostgreSQL refused to sign in user '\(address.user)' (\(error.serverInfo?[.message] ?? "authentication failed")): "
                + "check PGPASSWORD or [database] password_file"
        } catch {
            return describe(error)
        }
    }

    /// Runs `body` with a client of `configuration` running, and closes the client after.
    public static func withRunningClient<T: Sendable>(
        _ configuration: PostgresClient.Configuration, logger: Logger, _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// A sentence for a person about `error`, which PostgresNIO words vaguely on purpose (its queries may hold data).
    public static func describe(_ error: any Error) -> String {
        if let share = error as? ShareError { return share.detail }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return "PostgreSQL says: \(message)" }
        return "PostgreSQL could not be reached (\(error.code))"
    }
}
