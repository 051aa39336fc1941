import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// One history of a PostgreSQL store (`PostgresStore.history(of:quota:)`): the records of one owner ('' is nobody's,
/// the one history everyone shares), whose live records may hold `quota` bytes. No query of it names the owner: each
/// reads the owner's number from the store, which looks it up once per user and node (`PostgresOwnerNumbers`) and
/// gives it only within a change.
public struct PostgresHistory: HistoryStore {
    let store: PostgresStore
    /// Whose history this is: a user's name, or '' for nobody's.
    public let owner: String
    /// The most bytes this history's live records may hold; nil: no limit.
    public let quota: Int64?
    /// How records show their links.
    public var recordForm: RecordForm

    /// Runs `body` in a transaction on this history, its statements taking whatever time they need; when it wrote
    /// anything, the history's version and this history's own grow in the same transaction.
    func change<T: Sendable>(_ body: @Sendable @escaping (PostgresConnection) async throws -> T) async throws -> T {
        try await store.changing { connection in
            // The lock its events are numbered under, before any row (and so the owner's number first): taken only
            // by the first event, after rows locked, two changes of one history each held what the other waited for.
            let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
            try await connection.lockUntilTransactionEnds(PostgresStore.eventLock, owner, logger: store.logger)
            return (try await body(connection), [owner])
        }
    }

    /// The number this history's records carry (`OwnerNumber.none` when it has none yet).
    func ownerNumber(_ connection: PostgresConnection) async throws -> Int64 {
        try await store.owners.number(of: owner, connection, logger: store.logger)
    }

    /// The epoch, this history's own version and the latest expiry its links passed: what its ETags are made of.
    public func historyTag(at now: Timestamp) async throws -> String {
        try await store.read { connection in try await historyTag(at: now, connection) }
    }

    func historyTag(at now: Timestamp, _ connection: PostgresConnection) async throws -> String {
        let owner = try await ownerNumber(connection)
        let rows = try await store.prepared.execute(
            PostgresPreparedReads.HistoryTag(owner: owner, now: now.millisecondsSinceEpoch), on: connection, logger: store.logger)
        for try await (epoch, version, passed) in rows {
            return "\(epoch)-\(version)" + (passed.map { "-\($0)" } ?? "")
        }
        throw PostgresFailure.missingHistoryRow
    }
}
