import Foundation
import GRDB
import ShareHistory
import ShareKit

/// One history of a SQLite store (`SQLiteStore.history(of:quota:)`): the records of one owner ('' is nobody's, the one
/// history everyone shares), whose live records may hold `quota` bytes. No query of it names the owner: each reads the
/// owner's number from the store, which looks it up once per user and process (`SQLiteOwnerNumbers`) and gives it only
/// within a change.
public struct SQLiteHistory: HistoryStore {
    let store: SQLiteStore
    /// Whose history this is: a user's name, or '' for nobody's.
    public let owner: String
    /// The most bytes this history's live records may hold; nil: no limit.
    public let quota: Int64?
    /// How records show their links.
    public var recordForm: RecordForm

    /// The epoch, this process's start and the changes it committed to this history, read without asking the database
    /// once the owner's number is known: this process is the file's one writer (`DatabaseLock`); and the latest
    /// expiry its links passed (`SQLiteExpiries`), asked again only when a change or the next expiry comes.
    public func historyTag(at now: Timestamp) async throws -> String {
        let owner: Int64
        if let known = store.ownerNumbers.known(self.owner) {
            owner = known
        } else {
            owner = try await store.writer.read { db in try ownerNumber(db) }
        }
        let changes = store.version.changes(of: owner)
        let passed = try await store.expiries.passed(owner: owner, changes: changes, now: now.millisecondsSinceEpoch, store.writer)
        return "\(store.historyEpoch)-\(store.version.start)-\(changes)" + (passed.map { "-\($0)" } ?? "")
    }

    /// Runs a write on this history; when it changed any row, the history's version grows in the same transaction.
    func change<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await store.changing { db in (try body(db), [try ownerNumber(db)]) }
    }

    /// Stores a new record, generating its id unless one was given.
    public func createShare(_ new: NewShare, now: Timestamp, by: String) async throws -> ShareRecord {
        try await change { db in try insertShare(new, now: now, as: .created, by: by, db) }
    }

    /// Stores a new record within a write, with its event `action`, refused past the quota.
    func insertShare(_ new: NewShare, now: Timestamp, as action: ShareEvent.Action, by: String, _ db: Database) throws -> ShareRecord {
        if new.trashedAt == nil { try refusePastQuota(adding: Sums(size: new.size), db) }
        let before = try SQLiteRow.lastSeq(db)
        let owner = try store.ownerNumbers.numbering(owner, db)
        let record = try SQLiteStore.insert(new, now: now) { try SQLiteRow.insert($0, owner: owner, db) }
        try SQLiteRow.indexNames(after: before, db)
        try SQLiteEvents.record(action, id: record.id, at: now, by: by, db)
        if record.trashedAt != nil { try SQLiteEvents.record(.trashed, id: record.id, at: now, by: by, db) }
        return record.shown(recordForm.judgedNow())
    }

    /// The number this history's records carry (`SQLiteOwnerNumbers`).
    func ownerNumber(_ db: Database) throws -> Int64 {
        try store.ownerNumbers.number(of: owner, db)
    }

    /// Refuses a change that adds `added` to what the quota counts (`QuotaUsage`) when it would take it past the quota.
    func refusePastQuota(adding added: Sums, _ db: Database) throws {
        guard let quota, added.total.bytes > 0 else { return }
        let used = try SQLiteStore.quotaUsage(owner: try ownerNumber(db), db).total
        if used + added.total.bytes > Decimal(quota) { throw ShareError.quotaExceeded(quota: quota, used: used) }
    }

    /// Renames and/or moves a record (a trashed one only with `includeTrashed`); the type follows the new name.
    public func updateShare(
        id: String, _ patch: SharePatch, includeTrashed: Bool, by: String
    ) async throws -> ShareRecord {
        let now = Timestamp.now()
        return try await change { db in
            let original = try SQLiteRow.fetch(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, recordForm.judgedNow(), db)
            var record = original
            patch.apply(to: &record, at: now)
            try SQLiteRow.update(record, from: original, db)
            try SQLiteEvents.record(from: original, to: record, at: now, by: by, db)
            return record.shown(recordForm.judgedNow())
        }
    }

    /// Moves a live record to the trash; with `includeTrashed`, a record already there stays as it is.
    public func trashShare(
        id: String, includeTrashed: Bool, now: Timestamp, by: String
    ) async throws {
        try await change { db in
            let original = try SQLiteRow.fetch(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, recordForm.judgedNow(), db)
            var record = original
            record.trashedAt = record.trashedAt ?? now
            try SQLiteRow.update(record, from: original, db)
            try SQLiteEvents.record(from: original, to: record, at: now, by: by, db)
        }
    }

    /// Brings a record back from the trash; restoring a live record changes nothing.
    public func restoreShare(id: String, by: String) async throws -> ShareRecord {
        let now = Timestamp.now()
        return try await change { db in
            let original = try SQLiteRow.fetch(id: id, owner: try ownerNumber(db), includeTrashed: true, recordForm.judgedNow(), db)
            // A trashed file already counts; a record without one joins the live bytes.
            if original.trashedAt != nil, original.stored != true { try refusePastQuota(adding: Sums(size: original.size), db) }
            var record = original
            record.trashedAt = nil
            try SQLiteRow.update(record, from: original, db)
            try SQLiteEvents.record(from: original, to: record, at: now, by: by, db)
            return record.shown(recordForm.judgedNow())
        }
    }

    /// Deletes a record for good, whether or not it is in the trash.
    public func purgeShare(id: String) async throws {
        try await change { db in
            try SQLiteRow.purge(id: id, owner: try ownerNumber(db), db)
        }
    }
}
