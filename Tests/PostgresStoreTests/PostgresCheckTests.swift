import NIOCore
import PostgresNIO
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@testable import SharePostgres

/// `shared check` on PostgreSQL, at the store: a history after every kind of change passes; a total that drifted, a
/// record that breaks a rule and an owner that names nobody are each found and named, and a repair puts the totals
/// right. Were it otherwise, an operator would trust numbers no listing adds up to.
@Suite struct PostgresCheckTests {
    @Test func aHistoryAfterEveryKindOfChangePassesAndADriftedTotalIsFoundAndRepaired() async throws {
        try await TestPostgres.withStore { store in
            var alice = RandomChanges(store, owner: "alice")
            try await alice.apply(60)
            let (summary, repaired) = try await store.check(repairingTotals: false)
            let (live, trashed) = try await store.recordCounts()
            #expect((summary.live, summary.trashed, repaired) == (live, trashed, nil))
            #expect(summary.schema == "0005_owner_versions.sql" || summary.schema.hasPrefix("00"), "\(summary.schema)")

            for (table, unit) in [("share_total", "day"), ("share_total_hour", "hour"), ("share_total_six_hours", "six_hours")] {
                try await Self.execute("UPDATE \(table) SET count = count + 5 WHERE \(unit) = (SELECT min(\(unit)) FROM \(table))", store)
                await #expect(throws: StoreError.totalsDiffer(path: "the PostgreSQL database", rows: 1), "\(table)") {
                    try await store.check(repairingTotals: false)
                }
                #expect(try await store.check(repairingTotals: true).repaired == 1)
                #expect(try await store.check(repairingTotals: false).repaired == nil)
            }
        }
    }

    @Test func aRecordBreakingARuleAndAnOwnerNamingNobodyAreNamed() async throws {
        try await TestPostgres.withStore { store in
            try await store.sharedHistory.add("photo.jpg", id: "PHOTO-1")
            try await store.history(of: "bob", quota: nil).add("bob.pdf", id: "BOB-1")
            try await Self.execute("UPDATE share SET type = 'pdf' WHERE id = 'PHOTO-1'", store)
            await #expect(
                throws: StoreError.notAsWritten(
                    path: "the PostgreSQL database", reason: #"its record "PHOTO-1" has a type that its name does not give"#)
            ) { try await store.check(repairingTotals: false) }

            try await Self.execute("UPDATE share SET type = 'image' WHERE id = 'PHOTO-1'", store)
            try await Self.execute("UPDATE share SET owner = 77 WHERE id = 'BOB-1'", store)
            await #expect(
                throws: StoreError.misplacedRecords(path: "the PostgreSQL database", report: "1 record carrying owner number 77, which names no user")
            ) { try await store.check(repairingTotals: false) }
        }
    }

    /// Changes the database behind the store's back, as a hand-edit would.
    private static func execute(_ statement: String, _ store: PostgresStore) async throws {
        try await store.execute(PostgresQuery(unsafeSQL: statement))
    }

    @Test func filesAreWholeAndAMissingChunkOrAFileNoShareNeedsIsNamed() async throws {
        try await TestPostgres.withStore { store in
            let bytes = (0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 5) }
            let started = try await store.sharedHistory.startUpload(
                try NewShare(id: nil, name: "a.bin", folder: nil, createdAt: nil, size: 2_500_000), now: .now())
            let body = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(bytes: bytes))
                continuation.finish()
            }
            let share = try #require(try await store.sharedHistory.appendToUpload(id: started.id, at: 0, body, now: .now(), by: "me").share)
            let audit = try await store.auditFiles()
            #expect((audit.files, audit.bytes, audit.unclaimed) == (1, 2_500_000, 0))
            try await store.execute("UPDATE share SET blob = NULL WHERE id = \(share.id)")
            #expect(try await store.auditFiles().unclaimed == 1, "a file no share needs is counted")
            try await store.execute("DELETE FROM share_blob_chunk WHERE start = 0")
            await #expect(throws: StoreError.self, "a file missing a chunk is named") { try await store.auditFiles() }
        }
    }
}
