import Hummingbird
import Metrics
import ShareStore

/// `GET /metrics`: the Prometheus text format. The history's gauges are read as the scrape asks for them.
struct MetricsController {
    let metrics: ServerMetrics
    let store: any ShareRepository

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("metrics") { _, _ in
            let counts = try await store.recordCounts()
            Gauge(label: "share_records", dimensions: [("state", "live")]).record(counts.live)
            Gauge(label: "share_records", dimensions: [("state", "trashed")]).record(counts.trashed)
            for (file, bytes) in store.fileSizes() {
                Gauge(label: "share_database_bytes", dimensions: [("file", file)]).record(bytes)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        routes.rejectMethods(on: "metrics", except: [.get])
        return routes
    }
}
