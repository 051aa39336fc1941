import GRDB
import ShareKit

extension ShareDatabase {
    /// Applies `change` to every record of `targets` in one transaction, each with its event, as its one-record
    /// request would: all of them, or none when one id is not found (`.notFound` naming it) or a restore would pass
    /// the quota. Returns how many records it acted on.
    public func batch(
        _ change: BatchChange, _ targets: BatchTargets, now: Timestamp = .now(), by: String = Credential.localUser
    ) async throws -> Int {
        try await self.change { db in
            let records = try records(of: targets, for: change, db)
            if change == .restore {
                let comingBack = records.filter { $0.trashedAt != nil }.reduce(into: Sums()) { $0.add(Sums(size: $1.size)) }
                try refusePastQuota(adding: comingBack, db)
            }
            for original in records {
                var record = original
                switch change {
                case .move(let folder): record.folder = folder
                case .trash: record.trashedAt = record.trashedAt ?? now
                case .restore: record.trashedAt = nil
                case .purge:
                    try ShareRow.purge(id: record.id, owner: try ownerNumber(db), db)
                    continue
                }
                try ShareRow.update(record, from: original, db)
                try ShareEvents.record(from: original, to: record, at: now, by: by, db)
            }
            return records.count
        }
    }

    /// The records `targets` names in this history, each once, as `change` finds them.
    private func records(of targets: BatchTargets, for change: BatchChange, _ db: Database) throws -> [ShareRecord] {
        let owner = try ownerNumber(db)
        switch targets {
        case .ids(let ids):
            var seen: Set<String> = []
            return try ids.compactMap { id in
                let record = try ShareRow.fetch(id: id, owner: owner, includeTrashed: change.reachesTrash, db)
                return seen.insert(record.id).inserted ? record : nil
            }
        case .matching(var query):
            query.owner = owner
            if change != .purge { query.trashed = change == .restore }
            let filter = ShareFilter(query, name: try NameCondition(everyMatchOf: query, counts: trigramCounts, db))
            return try Row.fetchAll(db, SQLRequest<Row>(literal: "SELECT \(sql: ShareRow.columns) FROM share WHERE \(filter.sql) ORDER BY seq"))
                .map(ShareRow.record)
        }
    }
}
