import PostgresNIO
import StoreTestSupport
import Testing

@testable import SharePostgres

/// The statistics read their totals as arrays straight from PostgreSQL's binary form: every shape the server sends
/// must come back whole, and one the reader does not expect must go to PostgresNIO's decoding, never be misread.
@Suite struct PostgresCellsTests {
    @Test func arraysComeBackAsTheServerSentThem() async throws {
        try await TestPostgres.withStore { store in
            let sql = "SELECT ARRAY[1, -2, 9223372036854775807]::bigint[], NULL::bigint[], '{}'::bigint[], ARRAY['pdf', '年度', '']"
            let (integers, none, empty, strings) = try await store.lease(statementTimeout: 0) { connection in
                var cells: ([Int64], [Int64], [Int64], [String]) = ([], [0], [0], [])
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: store.logger) {
                    let row = row.makeRandomAccess()
                    cells = (try row.integers(0), try row.integers(1), try row.integers(2), try row.strings(3))
                }
                return cells
            }
            #expect(integers == [1, -2, .max])
            #expect(none.isEmpty && empty.isEmpty)
            #expect(strings == ["pdf", "年度", ""])
        }
    }

    @Test func anArrayOfAnotherShapeIsDecodedByTheLibraryOrRefused() async throws {
        try await TestPostgres.withStore { store in
            let sql = "SELECT ARRAY[1, NULL]::bigint[], ARRAY[[1, 2], [3, 4]]::bigint[], ARRAY[7, 8]::int[]"
            try await store.lease(statementTimeout: 0) { connection in
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: store.logger) {
                    let row = row.makeRandomAccess()
                    #expect(throws: (any Error).self) { try row.integers(0) }
                    #expect(throws: (any Error).self) { try row.integers(1) }
                    // Not a bigint[]: read by PostgresNIO's decoding, which widens each element.
                    #expect(try row.integers(2) == [7, 8])
                }
            }
        }
    }
}
