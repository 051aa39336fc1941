import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import ShareHistory
import ShareHooks
import ShareKit
import ShareThumbnails

/// The routes of `shared`, under the configured base path, behind request ids, metrics, logging, problem mapping
/// and auth.
/// With `connectionEnds` (the daemon's, fed by its `ConnectionGuard`), a read whose client has gone stops.
public func buildRouter(
    setup: ServerSetup, store: any ShareStore, metrics: ServerMetrics, connectionEnds: ConnectionEnds? = nil, linkLimits: LinkLimits = LinkLimits()
) -> Router<ShareRequestContext> {
    let server = setup.config.server
    let prefix = server.pathPrefix
    let router = Router(context: ShareRequestContext.self, options: .autoGenerateHeadEndpoints)
    // With `unix_peer`, a socket's peers are local users, not a proxy: their forwarding headers are not believed.
    let socketPeerIsProxy = !setup.config.auth.unixPeer
    router.add(middleware: RequestIDMiddleware(trustedProxies: server.trustedProxies, socketPeerIsProxy: socketPeerIsProxy))
    router.add(middleware: RequestMetricsMiddleware())
    router.add(
        middleware: RequestLogMiddleware(log: AccessLog(trustedProxies: server.trustedProxies, socketPeerIsProxy: socketPeerIsProxy)))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: ResponseCompression())
    router.add(
        middleware: CrossSiteMiddleware(
            allowedHosts: CrossSiteMiddleware.allowedHosts(
                listen: server.listen, signInConfigured: setup.signInConfigured, extra: server.allowedHosts),
            pathPrefix: prefix))
    let webPage = WebPageController(pathPrefix: prefix)
    // Paths in their one spelling (`RequestPath`): the page itself is the base path, or "/" at the root.
    let openPaths = (["healthz", "readyz", "openapi.yaml"] + (server.metricsPublic ? ["metrics"] : []) + webPage.openPaths)
        .map { $0.isEmpty ? (prefix.isEmpty ? "/" : prefix) : "\(prefix)/\($0)" }
    addSignIn(
        to: router, setup: setup, scope: SignInScope(openPaths: Set(openPaths), openPrefixes: ["\(prefix)/s/", "\(prefix)/r/", "\(prefix)/feed/"]))
    if let connectionEnds { router.add(middleware: ClientGoneMiddleware(ends: connectionEnds, pathPrefix: prefix)) }
    let base = RouterPath(prefix)
    var store = store
    store.recordForm = RecordForm(links: ShareLinks(pattern: server.shareURL, pathPrefix: prefix))
    let auth = setup.config.auth
    let listsEveryUser = auth.proxyUserHeader == nil && !auth.unixPeer
    let histories = Histories(store: store, auth: auth, knownUsers: listsEveryUser ? Set(setup.credentials.map(\.user)) : nil)
    router.addRoutes(MetricsController(metrics: metrics, histories: histories, isPublic: server.metricsPublic).endpoints, atPath: base)
    router.addRoutes(HealthController(store: store).endpoints, atPath: base)
    router.addRoutes(DocumentController().endpoints, atPath: base)
    router.addRoutes(
        UserController(histories: histories, shareURL: server.shareURL, trashDays: setup.config.database.trashDays, pathPrefix: prefix)
            .endpoints, atPath: base)
    router.addRoutes(HookController(histories: histories, settings: setup.config.hooks, pathPrefix: prefix).endpoints, atPath: base)
    router.addRoutes(EventStreamController(histories: histories).endpoints, atPath: base)
    router.addRoutes(FeedController(store: store, pathPrefix: prefix).endpoints, atPath: base)
    router.addRoutes(webPage.endpoints, atPath: base)
    let addresses = AccessLog(trustedProxies: server.trustedProxies, socketPeerIsProxy: socketPeerIsProxy)
    // Pictures decoded for thumbnails and for previews share one budget of memory.
    let decoding = DecodingBudget()
    let previews = PreviewPictures(budget: decoding)
    let bundles = BundleArchives(store: store)
    let gate = LinkCodeGate(
        throttle: LinkThrottle(window: linkLimits.window), codesTried: LinkThrottle(allowed: 20, window: linkLimits.window))
    let pages = RecipientPage(serviceName: server.serviceName)
    let links = LinkController(
        store: store, gate: gate,
        downloads: LinkThrottle(allowed: 30, window: linkLimits.window), addresses: addresses, pathPrefix: prefix,
        pages: pages, redirects: setup.config.files.downloads == .redirect,
        previews: previews, pictureBytes: server.maxPictureBytes, bundles: bundles)
    router.addRoutes(links.endpoints, atPath: base)
    let uploads = UploadController(
        histories: histories, pathPrefix: prefix, maxUploadBytes: Int64(server.maxUploadBytes),
        maxManifestBytes: RequestBodyKind.maxManifestBytes(maxBodyBytes: server.maxBodyBytes), slots: UploadSlots(limit: server.maxUploads))
    router.addRoutes(uploads.endpoints, atPath: base)
    router.addRoutes(
        RequestLinkController(
            histories: histories, gate: gate, addresses: addresses, pathPrefix: prefix, pages: pages, uploads: uploads
        ).endpoints, atPath: base)
    router.addRoutes(
        RequestController(histories: histories, pathPrefix: prefix, maxUploadBytes: Int64(server.maxUploadBytes)).endpoints, atPath: base)
    router.addRoutes(
        OwnedFileController(histories: histories, previews: previews, pictureBytes: server.maxPictureBytes, bundles: bundles).endpoints,
        atPath: base)
    // Before the record routes: `import`, `export`, `stats` and `folders` are words no id may be.
    router.addRoutes(TransferController(histories: histories, maxRecordBytes: server.maxBodyBytes).endpoints, atPath: base)
    let defaultZone = ZonedCalendar(identifier: server.timezone) ?? ZonedCalendar(zone: .gmt)
    router.addRoutes(BatchController(histories: histories, defaultZone: defaultZone, maxBodyBytes: server.maxBodyBytes).endpoints, atPath: base)
    let shares = ShareController(histories: histories, defaultZone: defaultZone, pathPrefix: prefix, maxBodyBytes: server.maxBodyBytes)
    router.addRoutes(shares.endpoints, atPath: base)
    router.addRoutes(
        ThumbnailController(histories: histories, maker: ThumbnailMaker(), maxPictureBytes: server.maxPictureBytes, budget: decoding)
            .endpoints, atPath: base)
    return router
}

/// The router with every request path in one spelling (`RequestPath`), as the daemon and the tests serve it.
public func buildResponder(
    setup: ServerSetup, store: any ShareStore, metrics: ServerMetrics = ServerMetrics(), connectionEnds: ConnectionEnds? = nil,
    linkLimits: LinkLimits = LinkLimits()
) -> some HTTPResponder<ShareRequestContext> {
    NormalizedPathResponder(
        router: buildRouter(setup: setup, store: store, metrics: metrics, connectionEnds: connectionEnds, linkLimits: linkLimits).buildResponder())
}

/// Builds the server of `served` (its store and the jobs that keep it); nothing listens until the store is ready.
public func buildApplication(
    setup: ServerSetup, served: ServedStore, metrics: ServerMetrics, logger: Logger
) throws -> some ApplicationProtocol {
    let server = setup.config.server
    let address: BindAddress
    switch server.listen {
    case .tcp(let host, let port):
        address = .hostname(host, port: port)
    case .unix(let path):
        try UnixSocketFile.prepare(path)
        address = .unixDomainSocket(path: path)
    }
    let prefix = server.pathPrefix
    let ends = ConnectionEnds()
    let rules = ConnectionGuard.Rules(
        registry: ConnectionRegistry(limit: server.maxConnections, logger: logger), ends: ends,
        accessLog: AccessLog(trustedProxies: server.trustedProxies, socketPeerIsProxy: !setup.config.auth.unixPeer), logger: logger,
        bodyRule: { path in
            switch RequestBodyKind(path: path, pathPrefix: prefix) {
            case .json:
                return .init(maxBytes: server.maxBodyBytes, pace: .within(.seconds(Int64(server.requestTimeoutSeconds))))
            case .manifest:
                return .init(
                    maxBytes: RequestBodyKind.maxManifestBytes(maxBodyBytes: server.maxBodyBytes),
                    pace: .within(.seconds(Int64(server.requestTimeoutSeconds)))
                )
            case .picture:
                return .init(maxBytes: server.maxPictureBytes, pace: .within(.seconds(Int64(server.requestTimeoutSeconds))))
            case .code:
                return .init(maxBytes: RequestBodyKind.maxCodeFormBytes, pace: .within(.seconds(Int64(server.requestTimeoutSeconds))))
            case .records, .bytes, .file:
                // An import or an upload streams for as long as it takes, but keeps moving.
                return .init(maxBytes: nil, pace: .atLeast(bytesPerSecond: server.minUploadRate, window: .seconds(10)))
            }
        },
        responsePace: .init(stall: .seconds(Int64(server.requestTimeoutSeconds)), bytesPerSecond: server.minUploadRate))
    var application = Application(
        responder: buildResponder(setup: setup, store: served.store, metrics: metrics, connectionEnds: ends),
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(rules: rules)],
                idleTimeout: .seconds(Int64(server.idleTimeoutSeconds)))),
        configuration: .init(address: address, serverName: "shared"),
        onServerRunning: { channel in
            if case .unix(let path) = server.listen { UnixSocketFile.setMode(server.socketMode, of: path, logger: logger) }
            logger.info("serving on \(boundAddress(channel.localAddress) ?? server.listen.description)")
        },
        logger: logger
    )
    application.addServices(served.services)
    application.addServices(Retention(store: served.store, trashDays: setup.config.database.trashDays, logger: logger))
    application.addServices(DownloadSweep(store: served.store, logger: logger))
    application.addServices(ObjectRelease(store: served.store, logger: logger))
    application.addServices(HookDeliverer(store: served.store, settings: setup.config.hooks, version: ShareVersion.current, logger: logger))
    return application
}

/// `127.0.0.1:41234` or `unix:/path`: the address actually bound, with port 0 resolved.
private func boundAddress(_ address: SocketAddress?) -> String? {
    if let path = address?.pathname { return "unix:\(path)" }
    guard let host = address?.ipAddress, let port = address?.port else { return nil }
    return ListenAddress.tcp(host: host, port: port).description
}
