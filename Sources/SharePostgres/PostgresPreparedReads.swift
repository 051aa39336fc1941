import Logging
import PostgresNIO
import ShareHistory
import Synchronization

/// The statements nearly every read sends, prepared by each connection the first time it sends them: PostgreSQL then
/// parses each once a connection and soon plans it once, where it plans an unnamed statement at every run (with the
/// share table's many indexes, planning the plain page took longer than reading it).
enum PostgresPreparedReads {
    /// The epoch, the owner's version and the latest expiry their links passed by `now` (a listing's states change
    /// then, though nothing was written): what a history's tag is made of.
    struct HistoryTag: PostgresPreparedStatement {
        // Named here: the default name is made by reflection at every run.
        static let name = "share_history_tag"
        // The latest expiry by an ordered read of one row, not `max()`: PostgreSQL costs `max()`'s generic plan as a
        // read of the whole index, and so would plan the tag anew at every run.
        static let sql = """
            SELECT epoch, coalesce((SELECT version FROM share_owner_version WHERE owner = $1), 0),
                (SELECT expires_at FROM share WHERE owner = $1 AND expires_at <= $2 ORDER BY expires_at DESC LIMIT 1)
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
            var cells = row.makeIterator()
            return (try cells.following().string(), try cells.following().integer(), try cells.following().optionalInteger())
        }
    }

    /// The first page of live records, newest first: what the app and the page ask for each time they open.
    struct NewestPage: PreparedRead {
        static let name = "share_newest_page"
        static let sql = (try? PostgresListing(query: ShareQuery(), owner: OwnerNumber.nobody).statement().text) ?? ""
        let bindings: PostgresBindings
    }

    /// The pages after it, as scrolling on asks for them.
    struct NewestPageAfter: PreparedRead {
        static let name = "share_newest_page_after"
        static let sql: String = {
            var query = ShareQuery()
            query.cursor = ShareCursor(sort: .createdAt, order: .desc, value: .integer(0), id: "")
            return (try? PostgresListing(query: query, owner: OwnerNumber.nobody).statement().text) ?? ""
        }()
        let bindings: PostgresBindings
    }

    /// What the statistics of every live record rest on, by the period that fits them, in any zone: the app's view.
    struct StatisticsBasis: PreparedRead {
        static let name = "share_statistics_basis"
        static let sql: String = {
            let statistics = PostgresTotalsStatistics(query: ShareQuery(), owner: OwnerNumber.nobody)
            return (try? statistics.basisStatement(StatisticsFromTotals(ShareQuery()), matching: true).text) ?? ""
        }()
        let bindings: PostgresBindings
    }

    /// What the statistics of every live record add to it in a zone whose months do not start at UTC midnight: the
    /// hours and quarter hours of the UTC days they start on.
    struct StatisticsQuarterHours: PreparedRead {
        static let name = "share_statistics_quarter_hours"
        static let sql: String = {
            let statistics = PostgresTotalsStatistics(query: ShareQuery(), owner: OwnerNumber.nobody)
            return (try? statistics.sumsStatement(of: [TotalsRead(grain: .quarterHours, from: 0, before: 1)])?.text) ?? ""
        }()
        let bindings: PostgresBindings
    }

    /// The reads sent prepared: a statement built for a request is sent as the one of these whose text it has.
    static let reads: [any PreparedRead.Type] = [NewestPage.self, NewestPageAfter.self, StatisticsBasis.self, StatisticsQuarterHours.self]
}

/// A read's statement, prepared: the values its builder bound, the rows as they come.
protocol PreparedRead: PostgresPreparedStatement where Row == PostgresRow {
    init(bindings: PostgresBindings)
    var bindings: PostgresBindings { get }
}

extension PreparedRead {
    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// Which statements each connection of the pool has prepared, and those it could not: PostgresNIO keeps a failed
/// preparation (past the statement timeout behind another session's lock, or cancelled) with its connection and
/// answers every later run of that statement there with the same error, so such a connection sends it unprepared.
final class PostgresPreparedStatements: Sendable {
    struct Marks {
        var prepared: Set<String> = []
        var failed: Set<String> = []
    }

    let marks = Mutex<[PostgresConnection.ID: Marks]>([:])

    /// A statement's rows, prepared or not.
    typealias Rows = AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>

    /// The rows of `sql`, sent as a prepared statement when it is one of `PostgresPreparedReads.reads`.
    func rows(_ sql: BoundSQL, on connection: PostgresConnection, logger: Logger) async throws -> Rows {
        if let read = PostgresPreparedReads.reads.first(where: { $0.sql == sql.text }) {
            return try await execute(read.init(bindings: sql.binds), on: connection, logger: logger)
        }
        return try await connection.query(sql.query, logger: logger).map { row throws in row }
    }

    /// The rows of `statement`, prepared on `connection` the first time, unprepared there once that failed.
    func execute<Statement: PostgresPreparedStatement>(
        _ statement: Statement, on connection: PostgresConnection, logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Statement.Row> {
        let known = marks.withLock { $0[connection.id] ?? Marks() }
        if !known.failed.contains(Statement.name) {
            do {
                let rows = try await connection.execute(statement, logger: logger)
                if !known.prepared.contains(Statement.name) { mark(connection) { $0.prepared.insert(Statement.name) } }
                return rows
            } catch {
                let outgrown = Self.outgrewItsPreparation(error)
                // A first run's failure may be its preparation's (which one is not told); a later one is the run's
                // own, unless the tables changed under the prepared statement.
                guard !known.prepared.contains(Statement.name) || outgrown else { throw error }
                mark(connection) { $0.failed.insert(Statement.name) }
                guard outgrown else { throw error }
            }
        }
        let query = PostgresQuery(unsafeSQL: Statement.sql, binds: try statement.makeBindings())
        return try await connection.query(query, logger: logger).map { try statement.decodeRow($0) }
    }

    /// Whether `error` says that the prepared statement no longer fits its tables (another node's migration changed
    /// a column's type) or is gone from the session: sent unprepared, the same statement runs.
    private static func outgrewItsPreparation(_ error: any Error) -> Bool {
        ["0A000", "26000"].contains((error as? PSQLError)?.serverInfo?[.sqlState] ?? "")
    }

    private func mark(_ connection: PostgresConnection, _ change: (inout Marks) -> Void) {
        marks.withLock { marks in
            // Connections the pool closed are forgotten now and then: one forgotten with a failed preparation fails
            // once more, and is marked again.
            if marks.count > 1000 && marks[connection.id] == nil { marks.removeAll() }
            change(&marks[connection.id, default: Marks()])
        }
    }
}
