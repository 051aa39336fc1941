import GRDB
import ShareHistory
import ShareKit
import ShareSQLite
import Testing

/// What each change writes, counted in rows (SQLite's changes, triggers included): a move or a trashing must not
/// rewrite the name's trigram index, which a rename alone needs. Every row written is pages of log.
@Suite struct RowsWrittenTests {
    @Test func eachChangeWritesOnlyWhatItChanges() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        let id = try await database.sharedHistory.add("report.pdf").id
        /// The rows a change writes, and whether it wrote to the trigram index (its storage, read before and after).
        func written(_ change: () async throws -> Void) async throws -> (rows: Int, trigrams: Bool) {
            let trigramStorage = "SELECT count(*) || '/' || max(rowid) || '/' || total(length(block)) FROM share_name_search_data"
            let before = try await queue.read { ($0.totalChangesCount, try String.fetchOne($0, sql: trigramStorage)) }
            try await change()
            let after = try await queue.read { ($0.totalChangesCount, try String.fetchOne($0, sql: trigramStorage)) }
            return (after.0 - before.0, after.1 != before.1)
        }
        // The record's row, its event, the event going out (history_event) and the history's version; the name's
        // trigrams only when its search key changes.
        // A move also moves the record between its folders' running totals: the row it leaves falls to zero and
        // goes (two writes), the row it joins is made (one).
        let move = try await written { _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: nil, folder: "/a")) }
        #expect(move.rows == 4 + 3 && !move.trigrams, "\(move.rows)")
        // Trashing and restoring move the record's count between its day's, month's and quarter hour's running
        // totals (the rows it leaves fall to zero and go, the rows it joins are made), and take it out of its
        // folder's or put it back.
        let totals = 9
        let trash = try await written { try await database.sharedHistory.trashShare(id: id) }
        #expect(trash.rows == 4 + totals + 2 && !trash.trigrams, "\(trash.rows)")
        let restore = try await written { _ = try await database.sharedHistory.restoreShare(id: id) }
        #expect(restore.rows == 4 + totals + 1 && !restore.trigrams, "\(restore.rows)")
        let caseOnly = try await written { _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: "REPORT.pdf", folder: nil)) }
        #expect(caseOnly.rows == 4 && !caseOnly.trigrams)
        let rename = try await written { _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: "summary.pdf", folder: nil)) }
        #expect(rename.trigrams)
        let same = try await written { _ = try await database.sharedHistory.updateShare(id: id, SharePatch(name: "summary.pdf", folder: nil)) }
        #expect(same.rows == 0 && !same.trigrams)
    }

    /// FTS5 merges the trigram index's segments a step further at every commit by default; on a large history
    /// those steps were a third of the log a change wrote (docs/benchmarks.md, "Log written per change"). The
    /// index merges a level's segments only once it holds sixteen.
    @Test func theTrigramIndexMergesOnlyAFullLevel() async throws {
        let queue = try DatabaseQueue()
        _ = try SQLiteStore(writer: queue)
        let settings = try await queue.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT k, v FROM share_name_search_config").map { ($0[0] as String, $0[1] as Int) })
        }
        #expect(settings["automerge"] == 0 && settings["crisismerge"] == 16)
    }
}
