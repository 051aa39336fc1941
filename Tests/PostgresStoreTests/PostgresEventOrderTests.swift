import Foundation
import Logging
import PostgresNIO
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres

/// Events are numbered in the order their transactions commit within a history, on however many nodes: a reader
/// going on from the last event it saw would otherwise skip for good one numbered before it but committed after.
@Suite struct PostgresEventOrderTests {
    private static func insertEvent(for id: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(
            "INSERT INTO share_event (share_seq, at, action, by) SELECT seq, 0, 'renamed', 'test' FROM share WHERE id = \(id)", logger: logger)
    }

    @Test func aHistorysSecondEventWaitsForTheFirstsTransactionAndAnotherHistorysDoesNot() async throws {
        try await TestPostgres.withStore { store in
            let first = try await store.history(of: "alice", quota: nil).add("a.txt")
            let second = try await store.history(of: "alice", quota: nil).add("b.txt")
            let other = try await store.history(of: "bob", quota: nil).add("c.txt")
            let logger = store.logger
            try await store.lease(statementTimeout: 0) { open in
                try await open.query("BEGIN", logger: logger)
                try await Self.insertEvent(for: first.id, open, logger)
                try await store.lease(statementTimeout: 0) { racing in
                    try await racing.query("SET statement_timeout = 1000", logger: logger)
                    await #expect(throws: PSQLError.self, "alice's next event waits for the open transaction") {
                        try await Self.insertEvent(for: second.id, racing, logger)
                    }
                    try await Self.insertEvent(for: other.id, racing, logger)
                }
                try await open.query("COMMIT", logger: logger)
            }
            try await store.lease(statementTimeout: 0) { connection in try await Self.insertEvent(for: second.id, connection, logger) }
            let events = try await store.history(of: "alice", quota: nil).historyEvents(after: 0, limit: 10)
            #expect(events.map(\.share.name) == ["a.txt", "b.txt", "a.txt", "b.txt"], "created twice, then renamed in commit order")
        }
    }
}
