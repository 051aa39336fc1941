import PostgresNIO
import ShareHistory
import ShareKit

/// `shared check` on PostgreSQL: the schema, every record against the rules an import applies, every owner a user,
/// and the running totals against the records; and their repair. The database server keeps its own pages whole.
extension PostgresStore {
    /// What a check found: the records, and the schema they are in.
    public struct CheckSummary: Sendable, CustomStringConvertible {
        public let live: Int
        public let trashed: Int
        /// The last migration applied.
        public let schema: String

        public var description: String {
            let records = live + trashed
            return
                "the PostgreSQL database: \(records == 1 ? "1 record" : "\(records) records") (\(live) live, \(trashed) in the trash), schema \(schema)"
        }
    }

    /// Checks the history, after rebuilding its running totals from the records when `repairingTotals` (in one
    /// transaction that writers wait for); returns what it holds and how many total rows the repair found wrong.
    public func check(repairingTotals: Bool) async throws -> (summary: CheckSummary, repaired: Int?) {
        let repaired = repairingTotals ? try await rebuildTotals() : nil
        return try await lease(statementTimeout: 0) { [self] connection in
            let schema = try await checkSchema(connection)
            try await checkRecords(connection)
            try await checkOwners(connection)
            let differing = try await totalsThatDiffer(connection)
            guard differing == 0 else { throw StoreError.totalsDiffer(path: Self.checkedName, rows: differing) }
            let (live, trashed) = try await recordCounts()
            return (CheckSummary(live: live, trashed: trashed, schema: schema), repaired)
        }
    }

    /// The rows of the running totals, in every history, that are not what the records add up to.
    package func totalsThatDiffer() async throws -> Int {
        try await lease(statementTimeout: 0) { [self] connection in try await totalsThatDiffer(connection) }
    }

    /// How the messages of a check name the database (never its password).
    private static let checkedName = "the PostgreSQL database"

    private func checkSchema(_ connection: PostgresConnection) async throws -> String {
        for try await made in try await connection.query("SELECT to_regclass('share_migration') IS NOT NULL", logger: logger).decode(Bool.self)
        where !made {
            throw StoreError.notAsWritten(path: Self.checkedName, reason: "it holds no history: start shared on it once to make one")
        }
        guard try await PostgresMigrations.isUpToDate(connection, logger: logger) else {
            throw StoreError.notAsWritten(path: Self.checkedName, reason: "its schema is older than this shared's: start shared once to migrate it")
        }
        var last = "none"
        for try await name in try await connection.query("SELECT max(name) FROM share_migration", logger: logger).decode(String?.self) {
            last = name ?? last
        }
        return last
    }

    /// Every record as an import would have stored it (`StoredRecordRules`), read in one pass.
    private func checkRecords(_ connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            "SELECT id, name, name_key, folder, created_at, size, type, trashed_at FROM share", logger: logger)
        for try await (id, name, nameKey, folder, createdAt, size, type, trashedAt) in rows.decode(
            (String, String, String?, String, Int64?, Int64?, String?, Int64?).self)
        {
            if let problem = StoredRecordRules.problem(
                id: id, name: name, nameKey: nameKey, folder: folder, createdAt: createdAt, size: size, type: type, trashedAt: trashedAt)
            {
                throw StoreError.notAsWritten(path: Self.checkedName, reason: "its record \(String(id.prefix(64)).debugDescription) \(problem)")
            }
        }
    }

    /// Every owner number a record carries names a user (0: nobody's).
    private func checkOwners(_ connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            "SELECT owner, count(*)::bigint FROM share WHERE owner > 0 AND owner NOT IN (SELECT id FROM share_user) GROUP BY owner ORDER BY owner LIMIT 3",
            logger: logger)
        var findings: [String] = []
        for try await (owner, count) in rows.decode((Int64, Int64).self) {
            findings.append("\(count == 1 ? "1 record" : "\(count) records") carrying owner number \(owner), which names no user")
        }
        guard findings.isEmpty else { throw StoreError.misplacedRecords(path: Self.checkedName, report: findings.joined(separator: "; ")) }
    }

    /// Every running total (per owner, per folder, per month, day, hour and quarter hour) made again from the records,
    /// while writers wait; returns how many total rows differed before.
    private func rebuildTotals() async throws -> Int {
        try await lease(statementTimeout: 0) { [self] connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("LOCK TABLE share IN SHARE MODE", logger: logger)
                let differing = try await totalsThatDiffer(connection)
                try await connection.run("SELECT share_rebuild_totals()", logger: logger)
                return differing
            }
        }
    }

    private func totalsThatDiffer(_ connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query(
            """
            WITH owner_total AS (SELECT owner, trashed_at IS NOT NULL AS trashed, count(*) AS count, sum(size) AS bytes
                                 FROM share GROUP BY 1, 2),
                 folder_total AS (SELECT owner, folder, count(*) AS count, sum(size) AS bytes
                                  FROM share WHERE trashed_at IS NULL GROUP BY 1, 2),
                 day AS (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_day(created_at) AS day, type,
                                count(*) AS count, sum(size) AS bytes FROM share GROUP BY 1, 2, 3, 4),
                 month AS (SELECT owner, trashed, share_utc_month(day) AS month, type, sum(count) AS count, sum(bytes) AS bytes
                           FROM day GROUP BY 1, 2, 3, 4),
                 quarter AS (SELECT owner, trashed_at IS NOT NULL AS trashed, share_utc_quarter(created_at) AS quarter, type,
                                    count(*) AS count, sum(size) AS bytes FROM share GROUP BY 1, 2, 3, 4),
                 hour AS (SELECT owner, trashed, share_hour_of_quarter(quarter) AS hour, type, sum(count) AS count,
                                 sum(bytes) AS bytes FROM quarter GROUP BY 1, 2, 3, 4),
                 six_hours AS (SELECT owner, trashed, share_six_hours_of_quarter(quarter) AS six_hours, type,
                                      sum(count) AS count, sum(bytes) AS bytes FROM quarter GROUP BY 1, 2, 3, 4)
            SELECT ((SELECT count(*) FROM owner_total FULL JOIN share_owner_total AS total USING (owner, trashed)
                     WHERE owner_total.count IS DISTINCT FROM total.count OR owner_total.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM folder_total FULL JOIN share_folder_total AS total USING (owner, folder)
                     WHERE folder_total.count IS DISTINCT FROM total.count OR folder_total.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM day FULL JOIN share_total AS total USING (owner, trashed, day, type)
                     WHERE day.count IS DISTINCT FROM total.count OR day.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM month FULL JOIN share_total_month AS total USING (owner, trashed, month, type)
                     WHERE month.count IS DISTINCT FROM total.count OR month.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM quarter FULL JOIN share_total_quarter AS total USING (owner, trashed, quarter, type)
                     WHERE quarter.count IS DISTINCT FROM total.count OR quarter.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM hour FULL JOIN share_total_hour AS total USING (owner, trashed, hour, type)
                     WHERE hour.count IS DISTINCT FROM total.count OR hour.bytes IS DISTINCT FROM total.bytes)
                  + (SELECT count(*) FROM six_hours FULL JOIN share_total_six_hours AS total USING (owner, trashed, six_hours, type)
                     WHERE six_hours.count IS DISTINCT FROM total.count OR six_hours.bytes IS DISTINCT FROM total.bytes))::bigint
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }
}
