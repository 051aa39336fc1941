import Logging
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres

extension PostgresStore {
    /// The values of `query`'s one column, read on a session of the pool without the quick lane's statement timeout
    /// (a connection of `client` may carry it from an earlier read, and a busy machine outgrows it).
    func values<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> [T] {
        try await lease(statementTimeout: 0) { connection in
            var values: [T] = []
            for try await value in try await connection.query(query, logger: logger).decode(T.self) { values.append(value) }
            return values
        }
    }

    /// Imports `count` records (`part 1.pdf`, `part 2.pdf`…, now) and expects every one stored.
    func importNames(_ count: Int) async throws {
        let session = try await sharedHistory.beginImport(by: "local")
        let batch = try (1...count).map { line in
            (line: line, share: try NewShare(id: nil, name: "part \(line).pdf", folder: nil, createdAt: nil, size: 1))
        }
        #expect(try await session.stage(batch).isEmpty)
        #expect(try await session.finish().stored == count)
    }

    /// Runs `statement` behind the store's back, as a hand-edit would, with no statement timeout.
    func execute(_ statement: PostgresQuery) async throws {
        try await lease(statementTimeout: 0) { connection in _ = try await connection.query(statement, logger: logger) }
    }

    /// Runs `body` while a session of the test's own client of this store's database holds `table` locked (ACCESS
    /// EXCLUSIVE: even its readers wait); `body` gets that client and releases the lock with the function it is
    /// given (or it is released when `body` returns).
    func withLocked<T: Sendable>(
        _ table: String, _ body: @Sendable (_ own: PostgresClient, _ release: @Sendable @escaping () -> Void) async throws -> T
    ) async throws -> T {
        let database = try #require(try await values("SELECT current_database()", as: String.self).first)
        let logger = Logger(label: "postgres-lock")
        return try await TestPostgres.withClient(database: database) { client in
            let (released, release) = AsyncStream<Void>.makeStream()
            let (locked, lock) = AsyncStream<Void>.makeStream()
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        try await connection.query("BEGIN", logger: logger)
                        try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE"), logger: logger)
                        lock.yield()
                        for await _ in released { break }
                        try await connection.query("COMMIT", logger: logger)
                    }
                    return nil
                }
                for await _ in locked { break }
                let value = try await body(client) { release.finish() }
                release.finish()
                try await group.waitForAll()
                return value
            }
        }
    }
}
