import Foundation
import Logging
import PostgresNIO
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres

/// A request waits for a connection of the pool only so long, and then is told that the database does not answer
/// (a 503), while PostgresNIO's pool keeps trying for a minute before it gives up on its own.
@Suite struct PostgresLeaseTests {
    @Test func aPoolThatCannotConnectIsReportedWithinTheWait() async throws {
        let nowhere = FileManager.default.temporaryDirectory.appending(path: "no-postgres-\(UUID().uuidString)")
        let address = try PostgresAddress(url: "postgresql://postgres@/share?host=\(nowhere.path)")
        let configuration = PostgresStore.clientConfiguration(address, password: nil, poolSize: 2)
        try await PostgresStore.withRunningClient(configuration, logger: Logger(label: "test-postgres")) { client in
            let watch = PostgresLeaseWatch()
            for _ in 1...3 {
                let error = await #expect(throws: ShareError.self) {
                    try await client.withConnection(waitingAtMost: .milliseconds(200), watch: watch) { _ in 1 }
                }
                #expect(error?.detail.contains("no connection to PostgreSQL within 0.2 s") == true, "\(String(describing: error))")
            }
        }
    }

    /// The wait bounds only the wait: a read that got its connection runs as long as it needs.
    @Test func aLeasedConnectionIsKeptPastTheWait() async throws {
        try await TestPostgres.withStore { store in
            // A connection open and idle first: the wait below is for leasing one, never for opening one, which a busy
            // machine can take longer than the wait to do.
            _ = try await store.sharedHistory.historyTag()
            // A wait a process busy with the whole suite meets in time, on a machine loaded several times over.
            let slept = try await store.lease(waitingAtMost: .seconds(5), statementTimeout: 0) { connection in
                // Its row comes when the sleep is over: the query's answer alone comes before.
                for try await _ in try await connection.query("SELECT pg_sleep(5.5)", logger: store.logger) {}
                return true
            }
            #expect(slept)
        }
    }
}
