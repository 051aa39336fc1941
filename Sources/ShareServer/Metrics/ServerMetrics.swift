import Metrics
import Prometheus

/// The daemon's metrics in the Prometheus text format: requests by route template and status, their latency,
/// requests in flight (Hummingbird's `MetricsMiddleware`), and the history's own (records live and trashed,
/// database and WAL bytes, records imported).
///
/// Hummingbird names its metrics for OpenTelemetry (`hb.requests`, `http.route`); they are renamed here to
/// Prometheus's conventions (`http_requests_total`, `http_route`), and every family gets the HELP line that
/// swift-metrics cannot pass on (`promtool check metrics` requires one).
public struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    public init() {}

    /// Makes swift-metrics (and so Hummingbird's middleware) record into `registry`. Once per process.
    public func bootstrap() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (Self.renamed[name] ?? Self.underscored(name), labels.map { (Self.underscored($0.0), $0.1) })
        }
        MetricsSystem.bootstrap(factory)
    }

    /// The exposition of every metric, with its HELP line.
    func exposition() -> String {
        var lines: [Substring] = []
        for line in registry.emitToString().split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst("# TYPE ".count).prefix { $0 != " " }
                lines.append("# HELP \(name) \(Self.help[String(name)] ?? String(name))")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static let renamed = [
        "hb.requests": "http_requests_total", "hb.request.errors": "http_request_errors_total",
        "http.server.request.duration": "http_request_duration_seconds", "http.server.active_requests": "http_requests_in_flight",
    ]

    static let help = [
        "http_requests_total": "Requests answered, by route template, method and status.",
        "http_request_errors_total": "Requests answered with an error, by route template, method and status.",
        "http_request_duration_seconds": "Time to answer a request, by route template, method and status.",
        "http_requests_in_flight": "Requests being answered now, by method.",
        "share_records": "Records in the history, live or in the trash.",
        "share_database_bytes": "Size of the database's files: the database itself and its write-ahead log.",
        "share_database_cache_bytes": "Memory SQLite's page caches hold now, all connections together (cache_bytes bounds it).",
        "process_resident_memory_bytes": "The daemon's resident memory.",
        "share_records_imported_total": "Records stored by imports since the daemon started.",
        "share_wal_checkpoints_total": "Checkpoints of the write-ahead log past wal_checkpoint_bytes, by outcome (restarted, busy).",
        "share_wal_checkpoint_duration_seconds": "Time a checkpoint of the write-ahead log took, waiting for readers included.",
        "share_reads_abandoned_total": "Reads stopped because their client had gone before the answer.",
    ]

    private static func underscored(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
