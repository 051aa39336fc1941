import Hummingbird
import Metrics
import ShareHistory

/// `GET /metrics`: the Prometheus text format. The history's gauges are read as the scrape asks for them.
///
/// The metrics speak of the whole service (every history's records, every user's requests): under per-user
/// histories only admins may read them, unless they are public (`metrics_public`, a scraper on a private network).
struct MetricsController {
    let metrics: ServerMetrics
    let histories: Histories
    /// `[server] metrics_public`: anyone may read them, signed in or not.
    let isPublic: Bool

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("metrics") { _, context in
            guard isPublic || histories.auth.histories == .shared || histories.admins.isAdmin(context.identity) else {
                throw Problem(.forbidden, "under per-user histories only admins may read the metrics (auth.admins), unless metrics_public")
            }
            let store = histories.store
            let counts = try await store.recordCounts()
            Gauge(label: "share_records", dimensions: [("state", "live")]).record(counts.live)
            Gauge(label: "share_records", dimensions: [("state", "trashed")]).record(counts.trashed)
            for (part, bytes) in store.bytesOnDisk() {
                Gauge(label: "share_database_bytes", dimensions: [("file", part)]).record(bytes)
            }
            if let bytes = store.cacheBytes() { Gauge(label: "share_database_cache_bytes").record(bytes) }
            Gauge(label: "process_resident_memory_bytes").record(ProcessMemory.residentBytes())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        routes.rejectMethods(on: "metrics", except: [.get])
        return routes
    }
}
