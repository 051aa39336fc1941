import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport
import StoreTestSupport
import Synchronization
import Testing

/// The write-ahead log started over while the history is read and written: a reader of an older snapshot makes
/// a checkpoint give up after its wait (never wait for ever, never hold writes longer), and once it is gone the
/// log is truncated to nothing, every record kept.
@Suite struct WriteAheadLogTests {
    /// `count` records imported in one go: a log of several megabytes.
    private func fill(_ database: SQLiteHistory, count: Int, prefix: String) async throws {
        let session = try await database.beginImport()
        let batch = try (0..<count).map { index in
            (line: index + 1, share: try NewShare(id: "\(prefix)\(index)", name: "file \(index).pdf", folder: nil, createdAt: nil, size: 1))
        }
        #expect(try await session.stage(batch).isEmpty)
        #expect(try await session.finish().problems.isEmpty)
    }

    @Test func aReaderOfAnOlderSnapshotMakesTheCheckpointGiveUpAndTheNextOneTruncatesTheLog() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let log = try SQLiteWriteAheadLog(databasePath: path)
        try await fill(database.sharedHistory, count: 20_000, prefix: "A")
        #expect(log.bytes > 1_000_000, "a log of \(log.bytes) bytes")

        // Given a reader whose snapshot is older than the log's end…
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: holding)
        try reader.inDatabase { db in
            try db.execute(sql: "BEGIN")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM share") == 20_000)
        }
        try await database.sharedHistory.add("after the reader.txt")

        // …the checkpoint gives up after its wait, and writes go on.
        #expect(try await log.checkpoint(waitingAtMost: .milliseconds(50)) == .busy)
        try await database.sharedHistory.add("after the checkpoint.txt")
        #expect(log.bytes > 0)

        // Once the reader is gone, the log starts over from nothing.
        try reader.inDatabase { db in try db.execute(sql: "COMMIT") }
        #expect(try await log.checkpoint(waitingAtMost: .milliseconds(50)) == .restarted)
        #expect(log.bytes == 0)
        #expect(try await database.recordCounts().live == 20_002, "every record kept")
    }

    @Test func theLogIsCheckpointedWhileReadsNeverStopOverlapping() async throws {
        let path = try temporaryDatabasePath()
        let database = try SQLiteStore(path: path)
        let log = try SQLiteWriteAheadLog(databasePath: path)
        try await fill(database.sharedHistory, count: 20_000, prefix: "B")
        // Two readers in a loop each: the log is never free of readers.
        let query = try ShareQuery(parameters: [], defaultZone: ZonedCalendar(zone: .gmt))
        let reads = ReadCount()
        let readers = (0..<2).map { _ in
            Task {
                while !Task.isCancelled {
                    do {
                        _ = try await database.sharedHistory.listShares(query)
                    } catch  where Task.isCancelled {
                        break
                    }
                    reads.value.add(1, ordering: .relaxed)
                }
            }
        }
        try await waitUntil("ten reads done", within: .seconds(300)) { reads.value.load(ordering: .relaxed) >= 10 }
        var outcome = SQLiteWriteAheadLog.Outcome.busy
        for _ in 0..<50 where outcome == .busy {
            try await database.sharedHistory.add("written.txt")
            outcome = try await log.checkpoint(waitingAtMost: .milliseconds(100))
        }
        let readDuring = reads.value.load(ordering: .relaxed)
        for reader in readers {
            reader.cancel()
            try await reader.value
        }
        #expect(readDuring >= 10)
        #expect(outcome == .restarted && log.bytes == 0)
    }
}

/// Reads done so far, shared by the reading tasks.
private final class ReadCount: Sendable {
    let value = Atomic(0)
}
