import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// The share histories in PostgreSQL, for several `shared` behind one balancer (each a `PostgresHistory`): the same
/// contract as `SQLiteStore`
/// (records, events, trash, thumbnails, per-user histories, quotas, imports, running totals), with everything the
/// nodes must agree on kept in the database: ids, the history's version, the totals, the locks of the jobs.
///
/// It answers only while its client's connection pool runs (`PostgresClient.run()`, a service beside the server).
public struct PostgresStore: ShareStore {
    let client: PostgresClient
    let logger: Logger
    let owners: PostgresOwnerNumbers
    let sessions = PostgresSessions()
    let closedConnections = PostgresClosedConnections()
    let prepared = PostgresPreparedStatements()
    let leaseWatch = PostgresLeaseWatch()
    /// The hashes of uploads in progress on this node.
    let digests = UploadDigests()

    /// How long a request waits for a connection of the pool before it is told that the database does not answer.
    let connectionWait: Duration
    /// The lanes listings, statistics and exports read through, so that heavy ones leave connections for quick ones.
    public var lanes = ReadLanes()
    /// How records show their links.
    public var recordForm = RecordForm.plain
    /// The bucket new files go to (`[files] store = "s3"`); nil: chunks in the database.
    public var bucket: (any BlobBucket)?

    /// A store over `client`, which must be running (`PostgresClient.run()`) before the store is migrated and used; a request
    /// waits at most `connectionWait` for a connection.
    public init(client: PostgresClient, logger: Logger, connectionWait: Duration = .seconds(5)) {
        self.client = client
        self.logger = logger
        self.connectionWait = connectionWait
        owners = PostgresOwnerNumbers()
    }

    /// Applies the migrations this binary carries that the database lacks, refusing a newer schema, and forgets
    /// the imports a node left unfinished when it stopped; waits at most `wait` for the database to answer.
    public func migrate(waitingAtMost wait: Duration = .seconds(10)) async throws {
        try await PostgresMigrations.apply(self, waitingAtMost: wait)
        let abandoned = Timestamp.now().millisecondsSinceEpoch - PostgresImport.abandonedAfter
        _ = try await write { connection in
            try await connection.query("DELETE FROM share_import WHERE started_at < \(abandoned)", logger: logger)
        }
    }

    /// The history of `owner` ('' is nobody's), whose live records may hold `quota` bytes.
    public func history(of owner: String, quota: Int64?) -> PostgresHistory {
        PostgresHistory(store: self, owner: owner, quota: quota, recordForm: recordForm)
    }

    /// Runs a change that may touch several histories, which `body` names by their owners' numbers. On a session
    /// without the quick lane's limit: under load even its `BEGIN` may take longer than a quick read may.
    ///
    /// A transaction PostgreSQL ends for a deadlock or a serialization failure is run again, a few times, and then
    /// answered as a database to try again (503): a change of one history takes its events' lock first
    /// (`PostgresHistory.change`), but one of the store's (a download counted) takes it only with its first event
    /// (migration 0016), after the rows it locked, so the two may each wait for the other; the server aborts one,
    /// whose retry then goes through. Every attempt is a whole transaction: nothing of one that was aborted is left.
    func changing<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> (T, [Int64])) async throws -> T {
        for attempt in 1... {
            do {
                return try await changingOnce(body)
            } catch let error as PSQLError where PostgresFailure.isConflict(error) {
                guard attempt < Self.changeAttempts else {
                    throw ShareError.storeUnreachable("it aborted the change for conflicts with others \(attempt) times")
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...(20 * attempt))))
            }
        }
        preconditionFailure("the loop returns or throws")
    }

    /// How many times a change is tried when the server aborts it for a conflict with another.
    static let changeAttempts = 5

    private func changingOnce<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> (T, [Int64])) async throws -> T {
        try await owners.whileChanging {
            try await lease(statementTimeout: 0) { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    let (value, changed) = try await body(connection)
                    // A transaction is given an id by its first write, and by nothing else.
                    try await connection.query(
                        """
                        INSERT INTO share_owner_version (owner, version)
                        SELECT DISTINCT changed, 1 FROM unnest(\(changed)::bigint[]) AS changed
                        WHERE changed >= 0 AND pg_current_xact_id_if_assigned() IS NOT NULL
                        ON CONFLICT (owner) DO UPDATE SET version = share_owner_version.version + 1
                        """, logger: logger)
                    try await connection.query(
                        "UPDATE share_history SET version = version + 1 WHERE pg_current_xact_id_if_assigned() IS NOT NULL", logger: logger)
                    return value
                }
            }
        }
    }

    /// Runs `body`, which only reads, on a connection of the pool, outside any transaction of ours, waiting at most
    /// `wait` for one; each of its statements may take the quick lane's time (`lanes.quickTime`), and `body` that
    /// outgrows it runs again without a limit.
    func read<T: Sendable>(
        waitingAtMost wait: Duration? = nil, _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await lease(waitingAtMost: wait, statementTimeout: quickMilliseconds) { connection in
            do {
                return try await body(connection)
            } catch  where PostgresSessions.isTimeout(error) && !Task.isCancelled {
                try await sessions.limit(connection, toMilliseconds: 0, logger: logger)
                return try await body(connection)
            }
        }
    }

    /// Runs `body`, which writes outside a transaction of ours (staging an import), on a session without the quick
    /// lane's limit: a statement timed out as its implicit transaction commits is undone after the server has
    /// answered it, so a write must never run under one.
    func write<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> T) async throws -> T {
        try await lease(statementTimeout: 0, body)
    }

    /// Runs `body` on a connection of the pool whose statements may take `milliseconds` each (0: any time),
    /// waiting at most `wait` for one.
    func lease<T: Sendable>(
        waitingAtMost wait: Duration? = nil, statementTimeout milliseconds: Int64,
        _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await PostgresFailure.mapping {
            try await client.withConnection(waitingAtMost: wait ?? connectionWait, watch: leaseWatch) { connection in
                try await closedConnections.run(on: connection) {
                    try await sessions.limit(connection, toMilliseconds: milliseconds, logger: logger)
                    return try await body(connection)
                }
            }
        }
    }

    /// The quick lane's time for a statement, in milliseconds.
    var quickMilliseconds: Int64 {
        max(1, lanes.quickTime.components.seconds * 1000 + lanes.quickTime.components.attoseconds / 1_000_000_000_000_000)
    }

    public func isReady() async -> Bool {
        // A balancer's health check wants its answer soon: a pool without a connection in a fifth of the time a
        // request would wait (a second) is not ready.
        let migrated =
            (try? await read(waitingAtMost: connectionWait / 5) { connection in try await PostgresMigrations.isUpToDate(connection, logger: logger) })
            ?? false
        guard migrated, let bucket else { return migrated }
        return await bucket.answers()
    }

    /// A store in a database server keeps nothing on this node's disk.
    public func bytesOnDisk() -> [(part: String, bytes: Int64)] { [] }

    /// PostgreSQL keeps its caches in its own server.
    public func cacheBytes() -> Int64? { nil }
}
