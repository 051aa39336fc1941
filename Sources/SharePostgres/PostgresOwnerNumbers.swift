import Logging
import PostgresNIO
import ShareHistory
import Synchronization

/// The numbers users' records carry (`share_user`), as in SQLite's `SQLiteOwnerNumbers`: 0 is nobody. A user keeps the
/// number the database gave them first, so every node may remember it once read.
///
/// Only committed numbers are remembered: inside a change's transaction (`whileChanging`), numbers read or given are
/// held back until that transaction commits, since one given by a transaction that rolls back names nobody. A number
/// is given only there: `numbering` outside a change throws, so no path can give one that outlives a rollback.
final class PostgresOwnerNumbers: Sendable {
    private let known = Mutex<[String: Int64]>(["": OwnerNumber.nobody])

    /// The numbers a change's transaction read or gave, remembered once it commits.
    final class Uncommitted: Sendable {
        fileprivate let numbers = Mutex<[String: Int64]>([:])
    }

    @TaskLocal private static var uncommitted: Uncommitted?

    /// Runs `change` (a transaction), remembering the numbers it read or gave only when it returns.
    func whileChanging<T>(_ change: () async throws -> T) async throws -> T {
        let pending = Uncommitted()
        let value = try await Self.$uncommitted.withValue(pending) { try await change() }
        let numbers = pending.numbers.withLock { $0 }
        known.withLock { $0.merge(numbers) { _, new in new } }
        return value
    }

    /// The user's number, or `none` when they have no records yet.
    func number(of user: String, _ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        if let number = known.withLock({ $0[user] }) { return number }
        guard let number = try await lookUp(user, connection, logger: logger) else { return OwnerNumber.none }
        remember(user, number)
        return number
    }

    /// The user's number, given them now if they have none: another node may give it at the same moment, and
    /// both then read the one the database kept.
    func numbering(_ user: String, _ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        guard Self.uncommitted != nil else { throw PostgresFailure.numberingOutsideAChange(user) }
        let number = try await number(of: user, connection, logger: logger)
        guard number == OwnerNumber.none else { return number }
        try await connection.query("INSERT INTO share_user (name) VALUES (\(user)) ON CONFLICT (name) DO NOTHING", logger: logger)
        guard let number = try await lookUp(user, connection, logger: logger) else { throw PostgresFailure.missingUserRow(user) }
        remember(user, number)
        return number
    }

    private func remember(_ user: String, _ number: Int64) {
        if let pending = Self.uncommitted {
            pending.numbers.withLock { $0[user] = number }
        } else {
            known.withLock { $0[user] = number }
        }
    }

    private func lookUp(_ user: String, _ connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        let rows = try await connection.query("SELECT id FROM share_user WHERE name = \(user)", logger: logger)
        for try await number in rows.decode(Int64.self) { return number }
        return nil
    }
}
