import Foundation
import Hummingbird
import NIOCore
import Logging
import ShareKit
import ShareStore

/// The routes of `shared`, under the configured base path, behind problem mapping, logging and auth.
public func buildRouter(setup: ServerSetup, database: ShareDatabase) -> Router<ShareRequestContext> {
    let server = setup.config.server
    let prefix = server.basePath == "/" ? "" : server.basePath
    let router = Router(context: ShareRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: RequestLogMiddleware(trustedProxies: server.trustedProxies))
    router.add(
        middleware: BearerAuthMiddleware(
            tokens: setup.tokens, publicRead: setup.config.auth.publicRead,
            openPaths: ["\(prefix)/healthz", "\(prefix)/readyz", "\(prefix)/openapi.yaml"]))
    let group = router.group(RouterPath(prefix))
    HealthController(database: database).addRoutes(to: group)
    DocumentController().addRoutes(to: group)
    // Before the record routes: `import`, `export` and `stats` are words no id may be.
    TransferController(database: database, maxRecordBytes: server.maxBodyBytes).addRoutes(to: group)
    ShareController(
        database: database, defaultZone: ZonedCalendar(identifier: server.timezone) ?? ZonedCalendar(zone: .gmt),
        pathPrefix: prefix, maxBodyBytes: server.maxBodyBytes
    ).addRoutes(to: group)
    return router
}

/// Opens and migrates the database, then builds the server; nothing listens until the database is ready.
public func buildApplication(setup: ServerSetup, logger: Logger) throws -> some ApplicationProtocol {
    let database = try ShareDatabase(path: setup.config.database.path)
    logger.info("database ready", metadata: ["path": "\(database.path)"])
    let address: BindAddress
    switch setup.config.server.listen {
    case .tcp(let host, let port):
        address = .hostname(host, port: port)
    case .unix(let path):
        try removeStaleSocket(at: path)
        address = .unixDomainSocket(path: path)
    }
    return Application(
        router: buildRouter(setup: setup, database: database),
        configuration: .init(address: address, serverName: "shared"),
        onServerRunning: { channel in
            logger.info("serving on \(boundAddress(channel.localAddress) ?? setup.config.server.listen.description)")
        },
        logger: logger
    )
}

/// `127.0.0.1:41234` or `unix:/path`: the address actually bound, with port 0 resolved.
private func boundAddress(_ address: SocketAddress?) -> String? {
    if let path = address?.pathname { return "unix:\(path)" }
    guard let host = address?.ipAddress, let port = address?.port else { return nil }
    return ListenAddress.tcp(host: host, port: port).description
}

/// A socket file left by an earlier run would make binding fail; anything else at that path is left alone.
private func removeStaleSocket(at path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
        throw ConfigError("\(path) exists and is not a socket; refusing to replace it")
    }
    unlink(path)
}
