import Foundation
import Logging
import ShareHistory
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// `wal_checkpoint_bytes` in one process, one look at a time: a log past its limit is started over at the next look
/// (a busy server's disk never fills with it), and one under it is let be (no write is held for nothing).
@Suite struct LogCheckpointsTests {
    @Test func aLogPastItsLimitIsStartedOverAtTheNextLookAndOneUnderItIsLetBe() async throws {
        let path = try temporaryFolder("log-checkpoints").appending(path: "share.db").path
        let store = try SQLiteStore(path: path)
        for index in 0..<300 { try await store.sharedHistory.add("report \(index).pdf") }
        let log = try SQLiteWriteAheadLog(databasePath: path)
        let written = log.bytes
        #expect(written > 64 * 1024, "the writes are in the log: \(written) bytes")

        var state = LogCheckpoints.State()
        await LogCheckpoints(log: log, limitBytes: written + 1, logger: Logger(label: "checkpoints")).look(&state)
        #expect(log.bytes == written, "under its limit, the log is let be")
        await LogCheckpoints(log: log, limitBytes: 64 * 1024, logger: Logger(label: "checkpoints")).look(&state)
        #expect(log.bytes == 0, "past its limit, the log is copied back and started over")
        #expect(try await store.sharedHistory.listShares(ShareQuery()).records.count == 100, "every record still reads: a page of 100")
    }
}
