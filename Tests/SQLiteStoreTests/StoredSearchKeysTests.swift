import Foundation
import GRDB
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import ShareSQLite

@Suite struct StoredSearchKeysTests {
    /// A database written before full case folding keeps lowercase keys; opened now, they are folded again,
    /// so that its old records are found like new ones, through the row-by-row test and the trigram index.
    @Test func keysMadeByAnEarlierFoldingAreMadeAgainOnOpening() async throws {
        let path = try temporaryDatabasePath()
        var query = ShareQuery()
        let record: ShareRecord
        do {
            let database = try SQLiteStore(path: path)
            record = try await database.sharedHistory.add("Straße Σίσυφος.txt")
            try await database.sharedHistory.add("plain.txt")
            // Given: the database as the previous version left it.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "UPDATE share SET name_key = ? WHERE id = ?", arguments: ["straße σίσυφοσ.txt", record.id])
                try db.execute(sql: "PRAGMA user_version = 0")
            }
            try queue.close()
            query.nameWords = SearchWords.pieces(of: "STRASSE")
            #expect(try await database.sharedHistory.listShares(query).records.isEmpty, "the stale key does not match")
        }

        // When: the daemon opens it again.
        let reopened = try SQLiteStore(path: path)

        // Then: every search path finds the record, whatever the spelling.
        for text in ["STRASSE", "ss", "ΣΥΦΟΣ", "straße"] {
            query.nameWords = SearchWords.pieces(of: text)
            #expect(try await reopened.sharedHistory.listShares(query).records.map(\.id) == [record.id], "\(text)")
        }
    }
}

@Suite struct EventMigrationTests {
    /// A database from before the history was kept gets a `created` event for each record, at its time.
    @Test func existingRecordsGetTheirCreatedEvent() async throws {
        let path = try temporaryDatabasePath()
        do {
            var earlier = DatabaseMigrator()
            for migration in EmbeddedMigrations.files where migration.name < "0006" {
                earlier.registerMigration(migration.name) { db in try db.execute(sql: migration.text) }
            }
            let queue = try DatabaseQueue(path: path)
            try earlier.migrate(queue)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO share (id, name, name_key, folder, created_at, size, type)
                        VALUES ('OLD1', 'old.pdf', 'old.pdf', '/', 1610000000000, 1, 'pdf')
                        """)
            }
            try queue.close()
        }
        let database = try SQLiteStore(path: path)
        let history = try await database.sharedHistory.events(id: "OLD1", after: 0, limit: 10).events
        #expect(history == [ShareEvent(at: Timestamp(millisecondsSinceEpoch: 1_610_000_000_000), action: .created, by: "unknown")])
    }
}
