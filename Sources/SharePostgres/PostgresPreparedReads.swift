import Logging
import PostgresNIO

/// The statements nearly every read sends, prepared by each connection the first time it sends them: PostgreSQL then
/// parses each once a connection and soon plans it once, where it plans an unnamed statement at every run (with the
/// share table's many indexes, planning the plain page took longer than reading it).
enum PostgresPreparedReads {
    /// The epoch, the owner's version and the latest expiry their links passed by `now` (a listing's states change
    /// then, though nothing was written): what a history's tag is made of.
    struct HistoryTag: PostgresPreparedStatement {
        // Named here: the default name is made by reflection at every run.
        static let name = "share_history_tag"
        static let sql = """
            SELECT epoch, coalesce((SELECT version FROM share_owner_version WHERE owner = $1), 0),
                (SELECT max(expires_at) FROM share WHERE owner = $1 AND expires_at <= $2)
            FROM share_history
            """
        let owner: Int64
        let now: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(owner)
            bindings.append(now)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, Int64, Int64?) {
            try row.decode((String, Int64, Int64?).self)
        }
    }

    /// The first page of live records, newest first: what the app and the page ask for each time they open.
    struct NewestPage: PreparedListing {
        static let name = "share_newest_page"
        static let sql =
            "SELECT \(PostgresRows.columns), name_key FROM share WHERE owner = $1 AND trashed_at IS NULL "
            + "ORDER BY created_at DESC, id_key DESC LIMIT $2"
        let bindings: PostgresBindings
    }

    /// The pages after it, as scrolling on asks for them.
    struct NewestPageAfter: PreparedListing {
        static let name = "share_newest_page_after"
        static let sql =
            "SELECT \(PostgresRows.columns), name_key FROM share WHERE owner = $1 AND trashed_at IS NULL "
            + "AND (created_at, id_key) < ($2, $3) ORDER BY created_at DESC, id_key DESC LIMIT $4"
        let bindings: PostgresBindings
    }
}

/// A listing's statement, prepared: the values `PostgresListing` bound, the rows as they come.
protocol PreparedListing: PostgresPreparedStatement where Row == PostgresRow {
    init(bindings: PostgresBindings)
    var bindings: PostgresBindings { get }
}

extension PreparedListing {
    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// The rows of `sql`, sent as a prepared statement when it is one of the listings above.
    func rows(_ sql: BoundSQL, logger: Logger) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow> {
        let prepared: [any PreparedListing.Type] = [PostgresPreparedReads.NewestPage.self, PostgresPreparedReads.NewestPageAfter.self]
        if let listing = prepared.first(where: { $0.sql == sql.text }) {
            return try await executePrepared(listing.init(bindings: sql.binds), logger: logger)
        }
        return try await query(sql.query, logger: logger).map { row throws in row }
    }

    /// Runs `statement`, prepared on this connection the first time. Should it fail before its rows come, the connection
    /// is closed for the pool to replace: had its preparation failed (past its statement timeout behind another
    /// session's lock, or cancelled), PostgresNIO would answer every later run of it here with that same error.
    func executePrepared<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Statement.Row> {
        do {
            return try await execute(statement, logger: logger)
        } catch {
            // Not waited for: the caller hears its own error, not the closing's.
            Task { try? await self.close() }
            throw error
        }
    }
}
