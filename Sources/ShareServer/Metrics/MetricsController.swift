import Foundation
import Hummingbird
import Metrics
import ShareStore

/// `GET /metrics`: the Prometheus text format. The history's gauges are read as the scrape asks for them.
struct MetricsController {
    let metrics: ServerMetrics
    let store: any ShareRepository
    /// The SQLite file, whose size (and its WAL's) is reported; nil for a store without files.
    let databasePath: String?

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("metrics") { _, _ in
            let counts = try await store.recordCounts()
            Gauge(label: "share_records", dimensions: [("state", "live")]).record(counts.live)
            Gauge(label: "share_records", dimensions: [("state", "trashed")]).record(counts.trashed)
            if let databasePath {
                for (file, path) in [("database", databasePath), ("wal", databasePath + "-wal")] {
                    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                    Gauge(label: "share_database_bytes", dimensions: [("file", file)]).record(size)
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        routes.rejectMethods(on: "metrics", except: [.get])
        return routes
    }
}
