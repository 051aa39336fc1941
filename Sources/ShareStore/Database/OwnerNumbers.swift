import GRDB
import Synchronization

/// The number each user's records carry as their owner (`share_user`; migration 0012): 0 for nobody (''), the
/// others given once, the first time a user's history is written to, and never changed. Numbers already looked up
/// are kept, so a request reads `share_user` at most once per user and process.
package final class OwnerNumbers: Sendable {
    /// Nobody's records: the one history of shared histories, and those from before per-user ones.
    package static let nobody: Int64 = 0
    /// What a history whose user has never written holds: no record carries it.
    package static let none: Int64 = -1

    private let known = Mutex<[String: Int64]>(["": OwnerNumbers.nobody])

    /// The user's number, or `none` when they have no records yet.
    func number(of user: String, _ db: Database) throws -> Int64 {
        if let number = known.withLock({ $0[user] }) { return number }
        guard let number = try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = ?", arguments: [user]) else {
            return Self.none
        }
        known.withLock { $0[user] = number }
        return number
    }

    /// The user's number, given now if they have none (within the write's transaction).
    func numbering(_ user: String, _ db: Database) throws -> Int64 {
        let number = try number(of: user, db)
        guard number == Self.none else { return number }
        try db.execute(sql: "INSERT INTO share_user (name) VALUES (?)", arguments: [user])
        return db.lastInsertedRowID
    }
}
