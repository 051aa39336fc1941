import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func createShare(_ new: NewShare, now: Timestamp, by: String) async throws -> ShareRecord {
        try await change { connection in try await insertShare(new, now: now, as: .created, by: by, connection).record }
    }

    /// Stores a new record within a change, with its event `action`, refused past the quota; returns it and its `seq`.
    func insertShare(
        _ new: NewShare, now: Timestamp, as action: ShareEvent.Action, by: String, _ connection: PostgresConnection
    ) async throws -> (record: ShareRecord, seq: Int64) {
        let owner = try await store.owners.numbering(self.owner, connection, logger: store.logger)
        if new.trashedAt == nil { try await refusePastQuota(adding: Decimal(new.size), owner: owner, connection) }
        let (record, seq) = try await insert(new, now: now, owner: owner, connection)
        try await PostgresEvents.record(action, seq: seq, at: now, by: by, connection, logger: store.logger)
        if record.trashedAt != nil { try await PostgresEvents.record(.trashed, seq: seq, at: now, by: by, connection, logger: store.logger) }
        return (record.shown(recordForm.judgedNow()), seq)
    }

    /// Makes a record of `new` and stores it; a generated id found taken (on this node or another) is drawn again,
    /// a given one is the client's conflict.
    private func insert(
        _ new: NewShare, now: Timestamp, owner: Int64, _ connection: PostgresConnection
    ) async throws -> (ShareRecord, Int64) {
        for _ in 0..<8 {
            let record = new.record(at: now)
            if let seq = try await PostgresRows.insert(record, owner: owner, connection, logger: store.logger) { return (record, seq) }
            if let id = new.id { throw ShareError.idTaken(id: id) }
        }
        throw StoreError.noFreeID
    }

    /// Refuses a change that adds `bytes` to what `owner`'s quota counts (`QuotaUsage`) when it would take it past the
    /// quota. The history's changes take turns from here to their commit, so two nodes adding at once cannot both
    /// pass.
    func refusePastQuota(adding bytes: Decimal, owner: Int64, _ connection: PostgresConnection) async throws {
        guard let quota, bytes > 0 else { return }
        try await connection.lockUntilTransactionEnds(PostgresStore.quotaLock, owner, logger: store.logger)
        let used = try await store.quotaUsage(owner: owner, connection).total
        if used + bytes > Decimal(quota) { throw ShareError.quotaExceeded(quota: quota, used: used) }
    }

    public func updateShare(id: String, _ patch: SharePatch, includeTrashed: Bool, by: String) async throws -> ShareRecord {
        let now = Timestamp.now()
        return try await edit(id: id, includeTrashed: includeTrashed, at: now, by: by) { record, _ in
            var record = record
            patch.apply(to: &record, at: now)
            return record
        }.shown(recordForm.judgedNow())
    }

    public func trashShare(id: String, includeTrashed: Bool, now: Timestamp, by: String) async throws {
        try await edit(id: id, includeTrashed: includeTrashed, at: now, by: by) { record, _ in
            var record = record
            record.trashedAt = record.trashedAt ?? now
            return record
        }
    }

    public func restoreShare(id: String, by: String) async throws -> ShareRecord {
        try await edit(id: id, includeTrashed: true, at: .now(), by: by) { record, connection in
            // A trashed file already counts; a record without one joins the live bytes.
            if record.trashedAt != nil, record.stored != true, let connection {
                try await refusePastQuota(adding: Decimal(record.size), owner: try await ownerNumber(connection), connection)
            }
            var record = record
            record.trashedAt = nil
            return record
        }.shown(recordForm.judgedNow())
    }

    /// Changes the record with this id as `edit` says, with the events of what changed, and returns it. `edit` is
    /// asked twice when it changes anything: first of the record as read (without a connection: nothing to
    /// check yet), then of the record as locked until the commit, with the transaction's connection. A change that
    /// changes nothing (a rename to the same name) locks and writes nothing, and leaves the history's version.
    @discardableResult
    private func edit(
        id: String, includeTrashed: Bool, at now: Timestamp, by: String,
        _ edit: @Sendable @escaping (ShareRecord, PostgresConnection?) async throws -> ShareRecord
    ) async throws -> ShareRecord {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            let read = try await PostgresRows.fetch(id: id, owner: owner, includeTrashed: includeTrashed, connection, logger: store.logger).record
            guard try await edit(read, nil) != read else { return read }
            let (seq, original) = try await PostgresRows.fetch(
                id: id, owner: owner, includeTrashed: includeTrashed, locking: true, connection, logger: store.logger)
            let record = try await edit(original, connection)
            guard record != original else { return record }
            try await PostgresRows.update(record, seq: seq, connection, logger: store.logger)
            try await PostgresEvents.record(from: original, to: record, seq: seq, at: now, by: by, connection, logger: store.logger)
            return record
        }
    }

    public func purgeShare(id: String) async throws {
        try await change { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "DELETE FROM share WHERE id_key = \(PostgresRows.idKey(id)) AND owner = \(owner) RETURNING seq", logger: store.logger)
            for try await _ in rows.decode(Int64.self) { return }
            throw ShareError.notFound(id: id)
        }
    }
}
