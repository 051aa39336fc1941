import Logging
import PostgresNIO

extension PostgresStore {
    /// The tables an import or a copy fills at once, whose statistics the reads' plans rest on.
    static let loadedTables = [
        "share", "share_event", "share_total", "share_total_month", "share_total_quarter", "share_total_hour", "share_total_six_hours",
        "share_folder_total",
    ].joined(separator: ", ")

    /// Refreshes the planner's statistics of `loadedTables` once `added` records have arrived at once, when
    /// autovacuum's default rule would (more than 50 plus a tenth of the records there were), rather than whenever
    /// autovacuum gets to them: until then plans rest on the counts from before, and statistics over the totals can
    /// take twice as long. A failure is logged, not thrown: the records are stored either way.
    func analyzeAfterLoading(_ added: Int) async {
        do {
            try await lease(statementTimeout: 0) { connection in
                let estimate = try await connection.query(
                    "SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = 'share'::regclass", logger: logger)
                var before = 0.0
                for try await rows in estimate.decode(Double.self) { before = rows }
                guard Double(added) > 50 + before / 10 else { return }
                try await connection.query(PostgresQuery(unsafeSQL: "ANALYZE \(Self.loadedTables)"), logger: logger)
            }
        } catch {
            logger.warning(
                "could not refresh the planner's statistics after loading records; autovacuum will",
                metadata: ["records": "\(added)", "error": "\(String(reflecting: error))"])
        }
    }
}
