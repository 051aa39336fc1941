import Foundation
import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresHistory {
    public func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?) {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let (seq, _) = try await PostgresRows.fetch(id: id, owner: owner, includeTrashed: true, connection, logger: store.logger)
            let page = try await PostgresEvents.page(seq: seq, after: after, limit: limit, connection, logger: store.logger)
            let shown = page.prefix(limit)
            return (shown.map(\.event), page.count > limit ? shown.last?.seq : nil)
        }
    }

    public func share(id: String, includeTrashed: Bool) async throws -> ShareRecord {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            return try await PostgresRows.fetch(
                id: id, owner: owner, includeTrashed: includeTrashed, form: recordForm.judgedNow(), connection, logger: store.logger
            ).record
        }
    }

    public func listShares(_ query: ShareQuery) async throws -> SharePage {
        try await store.laneRead { connection in try await page(query, connection) }
    }

    /// One lease for both: a listing's tag and page cost a node as much in crossings to the pool as in reading.
    public func taggedPage(_ query: ShareQuery, at now: Timestamp) async throws -> (tag: String, page: SharePage) {
        try await store.laneRead { connection in
            let tag = try await historyTag(at: now, connection)
            return (tag, try await page(query, connection))
        }
    }

    private func page(_ query: ShareQuery, _ connection: PostgresConnection) async throws -> SharePage {
        try await PostgresListing(query: query, owner: try await ownerNumber(connection), form: recordForm.judgedNow()).fetch(
            connection, store.prepared, logger: store.logger)
    }

    public func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats {
        try await store.laneRead { connection in try await stats(query, by: period, connection) }
    }

    public func taggedStats(_ query: ShareQuery, by period: StatsPeriod?, at now: Timestamp) async throws -> (tag: String, stats: ShareStats) {
        try await store.laneRead { connection in
            let tag = try await historyTag(at: now, connection)
            return (tag, try await stats(query, by: period, connection))
        }
    }

    private func stats(_ query: ShareQuery, by period: StatsPeriod?, _ connection: PostgresConnection) async throws -> ShareStats {
        try await PostgresStatistics(query: query, owner: try await ownerNumber(connection)).fetch(
            by: period, connection, store.prepared, logger: store.logger)
    }

    public func exportChunk(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?) {
        try await store.exportChunk(after: position, limit: limit, includingTrash: includingTrash, of: owner, recordForm)
    }

    public func usage() async throws -> ShareStats.Total {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "SELECT count, bytes FROM share_owner_total WHERE owner = \(owner) AND NOT trashed", logger: store.logger)
            for try await (count, bytes) in rows.decode((Int, Decimal).self) { return ShareStats.Total(count: count, bytes: bytes) }
            return ShareStats.Total()
        }
    }

    public func quotaUsage() async throws -> QuotaUsage {
        try await store.read { connection in try await store.quotaUsage(owner: try await ownerNumber(connection), connection) }
    }

    public func filesBytes() async throws -> Int64 {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let rows = try await connection.query(
                "SELECT coalesce(sum(size), 0)::bigint FROM share WHERE owner = \(owner) AND trashed_at IS NULL AND blob IS NOT NULL",
                logger: store.logger)
            for try await bytes in rows.decode(Int64.self) { return bytes }
            return 0
        }
    }

    public func folders(in parent: String) async throws -> [FolderUsage] {
        try await store.read { connection in
            let owner = try await ownerNumber(connection)
            let prefix = FolderPath.descendantPrefix(of: parent)
            let rows = try await connection.query(
                """
                SELECT folder, count, bytes FROM share_folder_total
                WHERE owner = \(owner) AND folder > \(prefix) AND folder < \(FolderPath.descendantsEnd(of: parent))
                """, logger: store.logger)
            var totals: [(folder: String, total: ShareStats.Total)] = []
            for try await (folder, count, bytes) in rows.decode((String, Int, Decimal).self) {
                totals.append((folder, ShareStats.Total(count: count, bytes: bytes)))
            }
            return FolderUsage.subfolders(of: parent, adding: totals)
        }
    }
}

extension PostgresHistory {
    public func downloads(id: String, before: Int64, limit: Int) async throws -> (downloads: [ShareDownload], next: Int64?) {
        try await store.read { connection in
            let (share, _) = try await PostgresRows.fetch(
                id: id, owner: try await ownerNumber(connection), includeTrashed: true, connection, logger: store.logger)
            let rows = try await connection.query(
                """
                SELECT seq, at, address, agent, bytes, complete FROM share_download
                WHERE share_seq = \(share) AND seq < \(before == 0 ? Int64.max : before) ORDER BY seq DESC LIMIT \(limit + 1)
                """, logger: store.logger)
            var page: [(seq: Int64, download: ShareDownload)] = []
            for try await (seq, at, address, agent, bytes, complete) in rows.decode((Int64, Int64, String, String, Int64?, Bool).self) {
                page.append(
                    (seq, ShareDownload(at: Timestamp(millisecondsSinceEpoch: at), address: address, agent: agent, bytes: bytes, complete: complete)))
            }
            let shown = page.prefix(limit)
            return (shown.map(\.download), page.count > limit ? shown.last?.seq : nil)
        }
    }
}
