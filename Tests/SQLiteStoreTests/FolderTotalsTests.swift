import Foundation
import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareSQLite

/// A folder's subfolders with their counts and bytes, from the running totals per folder. Were they wrong, the page's
/// folder list and `share folders` would promise shares that a click into the folder does not show.
@Suite struct FolderTotalsTests {
    /// After every kind of change (moves, the trash, imports, purges), each folder's subfolders add up what the records
    /// in them hold, counted the slow way, and so does each folder's tree (which a listing's race counts its reads by).
    @Test func subfoldersAddUpTheRecordsAfterEveryKindOfChange() async throws {
        let queue = try DatabaseQueue()
        let database = try SQLiteStore(writer: queue)
        var changes = RandomChanges(database, seed: 41)
        for _ in 0..<4 {
            try await changes.apply(50)
            let live = try await queue.read { db in
                try Row.fetchAll(db, sql: "SELECT folder, size FROM share WHERE trashed_at IS NULL").map {
                    (folder: $0[0] as String, size: $0[1] as Int64)
                }
            }
            for parent in ["/", "/a", "/a/b", "/a/b/c"] {
                let prefix = FolderPath.descendantPrefix(of: parent)
                var expected: [String: (count: Int, bytes: Decimal)] = [:]
                for record in live where record.folder.hasPrefix(prefix) && record.folder != parent {
                    let name = String(record.folder.dropFirst(prefix.count).prefix { $0 != "/" })
                    expected[name, default: (0, 0)].count += 1
                    expected[name, default: (0, 0)].bytes += Decimal(record.size)
                }
                let folders = try await database.sharedHistory.folders(in: parent)
                #expect(Dictionary(uniqueKeysWithValues: folders.map { ($0.name, $0.count) }) == expected.mapValues(\.count), "\(parent)")
                #expect(Dictionary(uniqueKeysWithValues: folders.map { ($0.name, $0.bytes) }) == expected.mapValues(\.bytes), "\(parent)")
                let tree = live.filter { $0.folder == parent || $0.folder.hasPrefix(prefix) }.count
                #expect(try await queue.read { db in try FolderTotals.records(inTreeOf: parent, owner: 0, db) } == tree, "\(parent)")
            }
        }
    }
}
