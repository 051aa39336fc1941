import GRDB
import ShareHistory
import ShareKit
import Synchronization

/// The number each user's records carry as their owner (`share_user`; migrations 0012 and 0016): 0 for nobody (''),
/// the others given once, the first time a user's history is written to, never changed and never given again.
/// Numbers already looked up are kept, so a request reads `share_user` at most once per user and process.
///
/// A number is remembered only once it is committed: one given (or read) inside a write transaction that is then
/// rolled back (a refused import, a full disk) would otherwise name another user's history later.
package final class SQLiteOwnerNumbers: Sendable {
    private let known = Mutex<[String: Int64]>(["": OwnerNumber.nobody])

    /// The user's number if it has been read already.
    func known(_ user: String) -> Int64? {
        known.withLock { $0[user] }
    }

    /// The user's number, or `none` when they have no records yet.
    func number(of user: String, _ db: Database) throws -> Int64 {
        if let number = known.withLock({ $0[user] }) { return number }
        guard let number = try Int64.fetchOne(db, sql: "SELECT id FROM share_user WHERE name = ?", arguments: [user]) else {
            return OwnerNumber.none
        }
        try remember(user, number, db)
        return number
    }

    /// The user's number, given now if they have none (within the write's transaction).
    func numbering(_ user: String, _ db: Database) throws -> Int64 {
        let number = try number(of: user, db)
        guard number == OwnerNumber.none else { return number }
        try db.execute(sql: "INSERT INTO share_user (name, made_at) VALUES (?, ?)", arguments: [user, Timestamp.now().millisecondsSinceEpoch])
        let given = db.lastInsertedRowID
        try remember(user, given, db)
        return given
    }

    /// Keeps `number` now when `db` read it from committed rows, else when the write transaction reading it commits.
    private func remember(_ user: String, _ number: Int64, _ db: Database) throws {
        // A reader's connection, or a read on a queue's one connection (`PRAGMA query_only`): nothing uncommitted.
        let reading = try db.configuration.readonly || Bool.fetchOne(db, sql: "PRAGMA query_only") == true
        guard !reading, db.isInsideTransaction else {
            known.withLock { $0[user] = number }
            return
        }
        db.afterNextTransaction(onCommit: { _ in self.known.withLock { $0[user] = number } })
    }
}
