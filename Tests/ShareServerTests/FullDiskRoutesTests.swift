import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import ShareHistory
import ShareKit
import ShareSQLite
import Testing

/// A disk that cannot take another page (SQLite's `max_page_count` stands in for a full file system).
@Suite struct FullDiskRoutesTests {
    @Test func aFullDiskAnswers507ForWritesWhileReadsWorkAndNothingStoredIsHurt() async throws {
        let queue = try DatabaseQueue()
        let store = try SQLiteStore(writer: queue)
        let pages = try await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)") }
        try await withServer(store: store) { client in
            var stored: [String] = []
            var full: TestResponse?
            for index in 0..<2000 {
                let response = try await client.send(
                    .post, "/share", #"{"name": "file-\#(index)-\#(String(repeating: "x", count: 150)).pdf", "size": 1}"#)
                guard response.status == .created else {
                    full = response
                    break
                }
                stored.append(try response.decode(ShareRecord.self).id)
            }
            let answer = try #require(full, "the disk filled up")
            #expect(answer.status.code == 507)
            #expect(answer.problemDetail.contains("the disk is full"))
            let importing = try await client.send(.post, "/share/import", String(repeating: #"{"name": "i.pdf", "size": 1}"# + "\n", count: 500))
            #expect(importing.status.code == 507, "\(importing.text)")
            // Reads keep working, and every record stored before is there.
            let listed = try await client.send(.get, "/share?limit=1000").decode([ShareRecord].self).map(\.id)
            #expect(Set(listed) == Set(stored))
            let me = try await client.send(.get, "/me")
            #expect(me.status == .ok && me.text.contains(#""usedBytes""#), "who you are is a read, though a first feed key cannot be written")
            #expect(try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
            // Space is back: writes work again.
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
            #expect(try await client.send(.post, "/share", #"{"name": "after.pdf", "size": 1}"#).status == .created)
        }
    }
}
