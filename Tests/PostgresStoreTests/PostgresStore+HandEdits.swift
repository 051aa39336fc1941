import PostgresNIO

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

    /// Runs `statement` behind the store's back, as a hand-edit would, with no statement timeout.
    func execute(_ statement: PostgresQuery) async throws {
        try await lease(statementTimeout: 0) { connection in _ = try await connection.query(statement, logger: logger) }
    }
}
