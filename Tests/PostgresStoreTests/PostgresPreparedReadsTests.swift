import PostgresNIO
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Synchronization
import Testing

@testable import ShareHistory
@testable import SharePostgres

/// The plain pages and the history's tag are statements each connection prepares once: PostgreSQL plans them once,
/// not at every request. A preparation that fails must not stay with its connection.
@Suite struct PostgresPreparedReadsTests {
    @Test func theNewestPagesAreSentAsPreparedStatements() throws {
        // Were the listing's SQL to drift from them, the pages would be planned at every request again, unnoticed.
        let first = PostgresListing(query: ShareQuery(), owner: 7)
        #expect(try first.statement().text == PostgresPreparedReads.NewestPage.sql)
        var next = ShareQuery()
        next.cursor = ShareCursor(sort: .createdAt, order: .desc, value: .integer(1_700_000_000_000), id: "abc")
        #expect(try PostgresListing(query: next, owner: 7).statement().text == PostgresPreparedReads.NewestPageAfter.sql)
    }

    @Test func aConnectionWhosePreparationFailedIsReplacedNotKeptFailing() async throws {
        try await TestPostgres.withStore { store in
            try await store.add("a.pdf", size: 3)
            let used = Mutex<PostgresConnection?>(nil)
            try await store.withLocked("share") { _, release in
                // A connection's first plain page, behind a migration's lock: its preparation times out.
                await #expect(throws: (any Error).self) {
                    try await store.lease(statementTimeout: 50) { connection in
                        used.withLock { $0 = connection }
                        return try await connection.rows(try PostgresListing(query: ShareQuery(), owner: 0).statement(), logger: store.logger)
                    }
                }
                release()
            }
            let connection = try #require(used.withLock { $0 })
            // Kept, it would answer every later plain page with that timeout until the pool closed it as idle, a
            // minute on.
            try await waitUntil("the connection is closed", within: .seconds(20)) { connection.isClosed }
            #expect(try await store.listShares(ShareQuery()).records.map(\.name) == ["a.pdf"])
        }
    }
}
