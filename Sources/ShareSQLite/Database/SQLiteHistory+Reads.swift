import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    // MARK: - Reads

    /// A page of a record's history, oldest first, trashed or not; `.notFound` when no record has this id.
    public func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?) {
        try await store.writer.read { db in
            let page = try SQLiteEvents.page(id: id, owner: try ownerNumber(db), after: after, limit: limit, db)
            if page.isEmpty { _ = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: true, db) }
            let shown = page.prefix(limit)
            return (shown.map(\.event), page.count > limit ? shown.last?.seq : nil)
        }
    }

    /// One record by id, case-insensitively; a trashed one only with `includeTrashed`.
    public func share(id: String, includeTrashed: Bool) async throws -> ShareRecord {
        try await store.writer.read { db in
            try SQLiteRow.fetch(id: id, owner: try ownerNumber(db), includeTrashed: includeTrashed, recordForm.judgedNow(), db)
        }
    }

    /// One page of records matching `query`, as the JSON array the API answers with, and the next page's cursor.
    public func listShares(_ query: ShareQuery) async throws -> SharePage {
        try await store.lanes.read(store.writer) { [self] db in
            try SQLiteListing(
                query: query, owner: try ownerNumber(db), form: recordForm.judgedNow(), trigramCounts: store.trigramCounts,
                secondReader: store.secondReader
            ).fetch(db)
        }
    }

    public func exportChunk(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await store.exportChunk(after: position, limit: limit, includingTrash: includingTrash, of: owner, recordForm)
    }

    /// Counts and bytes of the records `query` matches, in total, per icon category and per period in its zone.
    public func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats {
        try await store.lanes.read(store.writer) { [self] db in
            try SQLiteStatistics(query: query, owner: try ownerNumber(db), trigramCounts: store.trigramCounts).fetch(by: period, db)
        }
    }

    public func usage() async throws -> ShareStats.Total {
        try await store.writer.read { db in
            try SQLiteRunningTotals.sums(owner: try ownerNumber(db), trashed: false, db).total
        }
    }

    public func filesBytes() async throws -> Int64 {
        try await store.writer.read { db in
            try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT coalesce(sum(size), 0) FROM share INDEXED BY share_live_files WHERE owner = ? AND trashed_at IS NULL AND blob IS NOT NULL"
                ),
                arguments: [try ownerNumber(db)]) ?? 0
        }
    }

    public func quotaUsage() async throws -> QuotaUsage {
        try await store.writer.read { db in try SQLiteStore.quotaUsage(owner: try ownerNumber(db), db) }
    }

    public func folders(in parent: String) async throws -> [FolderUsage] {
        try await store.writer.read { db in try FolderTotals.subfolders(of: parent, owner: try ownerNumber(db), db) }
    }

    public func downloads(id: String, before: Int64, limit: Int) async throws -> (downloads: [ShareDownload], next: Int64?) {
        try await store.writer.read { db in
            let share = try SQLiteRow.seq(id: id, owner: try ownerNumber(db), includeTrashed: true, db)
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT seq, at, address, agent, bytes, complete FROM share_download
                        WHERE share_seq = ? AND seq < ? ORDER BY seq DESC LIMIT ?
                        """), arguments: [share, before == 0 ? Int64.max : before, limit + 1])
            return (rows.prefix(limit).map(SQLiteRow.download), rows.count > limit ? rows[limit - 1]["seq"] : nil)
        }
    }
}
