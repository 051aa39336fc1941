import CMalloc
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit

/// What `shared` does once its settings are known: print them (`--check-config`), or serve until SIGTERM/SIGINT the
/// store `openStore` opens from `[database]` and `[files]`, its reads through the given lanes.
///
/// It lives here, not in the executable, because the 6.3.1 optimizer crashes on this code in an `@main` command.
public func runDaemon(
    setup: ServerSetup, checkOnly: Bool,
    openStore: @Sendable (ShareConfig, ReadLanes, Logger) async throws -> ServedStore
) async throws {
    if checkOnly {
        print(summary(of: setup))
        return
    }
    let server = setup.config.server
    // LOG_LEVEL, the usual variable of Swift servers, wins over the file like any other variable.
    let level =
        ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        ?? Logger.Level(rawValue: server.logLevel) ?? .info
    LoggingSystem.bootstrap { label in
        switch server.logFormat {
        case .text:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        case .json:
            return JSONLogHandler(label: label, logLevel: level)
        }
    }
    let logger = Logger(label: "shared")
    for warning in setup.warnings { logger.warning("\(warning)") }
    for notice in setup.notices { logger.notice("\(notice)") }
    raiseOpenFileLimit(toHold: setup.config.server.maxConnections, logger: logger)
    // One malloc arena per core (at least two), not glibc's eight: RSS stays flat under steady traffic.
    share_limit_malloc_arenas(Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    share_map_large_blocks(Int32(UploadReceiver.chunkBytes))
    let metrics = ServerMetrics()
    metrics.bootstrap()
    let application: any ApplicationProtocol
    do {
        let served = try await openStore(setup.config, ReadLanes(setup.config.server), logger)
        application = try buildApplication(setup: setup, served: served, metrics: metrics, logger: logger)
    } catch {
        logger.critical("\(error)")
        throw DaemonStartFailure()
    }
    try await serve(application, shutdownSeconds: server.shutdownSeconds, logger: logger)
}

/// Serves until SIGTERM or SIGINT, then stops accepting and lets the requests in flight finish, for at most
/// `shutdownSeconds`: those still running then are cut off (an import cut off stores nothing), and a second later
/// the process ends whatever still runs.
private func serve(_ application: some ApplicationProtocol, shutdownSeconds: Int, logger: Logger) async throws {
    var configuration = ServiceGroupConfiguration(
        services: [
            .init(service: application),
            .init(service: ShutdownDeadline(seconds: shutdownSeconds + 1, logger: logger), successTerminationBehavior: .ignore),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(shutdownSeconds)
    try await ServiceGroup(configuration: configuration).run()
    logger.info("stopped")
}

/// Ends the process when a graceful shutdown overruns: work that ignores its cancellation (a statement whose
/// answer never comes) must not keep `shared` from stopping. Ending mid-write is safe: the database rolls back what
/// was not committed.
private struct ShutdownDeadline: Service {
    let seconds: Int
    let logger: Logger

    func run() async throws {
        guard (try? await gracefulShutdown()) != nil else { return }
        let (seconds, logger) = (seconds, logger)
        Task.detached {
            try? await Task.sleep(for: .seconds(seconds))
            logger.error("work still running \(seconds) s after the signal to stop; stopping without it")
            exit(EXIT_FAILURE)
        }
    }
}

/// The daemon could not start; the reason has been logged just before.
public struct DaemonStartFailure: Error, CustomStringConvertible {
    public var description: String { "shared could not start (see the message above)" }
}

/// Where `--check-config` says files go.
private func files(_ files: FilesSettings) -> String {
    guard files.store == .s3 else { return "with the database" }
    return
        "bucket \(files.s3Bucket) at \(files.s3Endpoint)\(files.s3Prefix.isEmpty ? "" : " under \(files.s3Prefix)"), downloads \(files.downloads.rawValue)"
}

private func summary(of setup: ServerSetup) -> String {
    let config = setup.config
    let (server, database) = (config.server, config.database)
    var ways: [String] = []
    if !setup.credentials.isEmpty {
        let users = Set(setup.credentials.map(\.user)).sorted()
        ways.append("\(setup.credentials.count) token(s) of \(users.joined(separator: ", "))")
    }
    if let header = config.auth.proxyUserHeader { ways.append("\(header) from trusted proxies") }
    if config.auth.unixPeer { ways.append("unix socket peers") }
    if !config.auth.admins.isEmpty { ways.append("admins \(config.auth.admins.joined(separator: ", "))") }
    let auth = ways.isEmpty ? "none (local connections only)" : ways.joined(separator: "; ")
    return """
        configuration OK
          file:      \(config.file ?? "(none; built-in defaults)")
          listen:    \(config.server.listen)
          base_path: \(config.server.basePath)
          timezone:  \(config.server.timezone)
          database:  \(database.postgres.map { "PostgreSQL \($0), \(database.poolSize) connections" } ?? "\(database.path), log checkpointed past \(database.walCheckpointBytes) bytes, caches within \(database.cacheBytes) bytes")
          files:     \(files(config.files))
          trash:     \(database.trashDays == 0 ? "kept forever" : "purged after \(database.trashDays) days")
          backups:   \(database.backupDirectory.map { "every \(database.backupEverySeconds) s into \($0), \(database.backupKeep) kept" } ?? "none")
          auth:      \(auth)\(config.auth.publicRead ? ", public reads" : "")\(server.metricsPublic ? ", public metrics" : "")
          limits:    \(server.maxConnections) connections, idle \(server.idleTimeoutSeconds) s, body \(server.maxBodyBytes) bytes in \(server.requestTimeoutSeconds) s, imports \(server.minUploadRate) bytes/s
          logs:      \(server.logFormat.rawValue), \(server.logLevel)
        """
}

/// Raises the soft limit on open files toward the hard one, as servers do, so that `max_connections` sockets fit
/// beside the database's files; a hard limit too low for them is logged, and the first to run short is new
/// connections (which the connection limit keeps from happening when set below it).
private func raiseOpenFileLimit(toHold connections: Int, logger: Logger) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let wanted = rlim_t(connections + 64)
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    if limit.rlim_cur < wanted {
        logger.warning("the open-file limit (\(limit.rlim_cur)) is below max_connections (\(connections)) plus the database's files")
    }
}
