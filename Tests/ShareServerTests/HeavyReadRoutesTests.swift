import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareHistory
@testable import ShareSQLite

/// A heavy read that cannot get its turn is told when to come back, in the API's words, instead of waiting.
@Suite struct HeavyReadRoutesTests {
    @Test func aHeavyReadWhoseLaneStaysFullIs503WithRetryAfterWhileQuickReadsAreAnswered() async throws {
        var database = try SQLiteStore(path: try temporaryFolder("heavy").appending(path: "share.db").path)
        // A quick budget that a listing of nothing fits in (under 8,000 of work) and statistics of 300 records do not
        // (several times more).
        database.lanes = ReadLanes(heavySlots: 1, heavyWait: .milliseconds(1), quickWork: 12_000)
        let lanes = database.lanes
        try await withServer(store: database) { client in
            for number in 1...300 { try await client.create(#""name": "report \#(number).pdf", "size": 1"#) }
            #expect(await lanes.gate.enter(within: .seconds(1)), "the one heavy slot, held")
            let shed = try await client.send(.get, "/share/stats?q=report")
            #expect(shed.status == .serviceUnavailable)
            #expect(shed.headers[.retryAfter] == "1" && shed.problemDetail.contains("try again"), "\(shed.text)")
            #expect(try await client.send(.get, "/share?q=nothing").status == .ok, "a quick read is answered meanwhile")
            await lanes.gate.leave()
            #expect(try await client.send(.get, "/share/stats?q=report").decode(ShareStats.self).count == 300)
        }
    }
}
