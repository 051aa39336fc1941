import PostgresNIO
import ShareKit
import ShareTestSupport
import StoreTestSupport
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

    @Test func aConnectionWhosePreparationFailedSendsThePageUnprepared() async throws {
        try await TestPostgres.withStore { store in
            try await store.add("a.pdf", size: 3)
            let page = try PostgresListing(query: ShareQuery(), owner: OwnerNumber.nobody).statement()
            let names = try await store.withLocked("share") { _, release in
                try await store.lease(statementTimeout: 50) { connection in
                    // The connection's first plain page, behind a migration's lock: its preparation times out.
                    await #expect(throws: PSQLError.self) { _ = try await store.prepared.rows(page, on: connection, logger: store.logger) }
                    release()
                    // As a read does after a timeout: again on the same connection, with no limit. PostgresNIO would
                    // answer the prepared statement with the same timeout for as long as the connection lives.
                    try await store.sessions.limit(connection, toMilliseconds: 0, logger: store.logger)
                    var names: [String] = []
                    for try await row in try await store.prepared.rows(page, on: connection, logger: store.logger) {
                        names.append(try row.makeRandomAccess().string(1))
                    }
                    return names
                }
            }
            #expect(names == ["a.pdf"])
        }
    }
}
