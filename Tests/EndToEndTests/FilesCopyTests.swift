import Foundation
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// `shared files copy --to s3`, as an operator moving a history's files into an object store meets it: every file
/// opens by its link before and after, none is left with the history, and a second run has nothing to do. Were it
/// otherwise, the move would lose files, or keep them twice.
@Suite struct FilesCopyTests {
    @Test func filesBesideASQLiteDatabaseMoveIntoTheBucket() async throws {
        let folder = try temporaryFolder("files-copy")
        let database = folder.appending(path: "share.db").path
        try await Self.move(in: folder, database: [:], copyArguments: ["--db", database], stopsForTheCopy: true)
        let left = FileManager.default.enumerator(atPath: database + ".files/blobs")?.compactMap { $0 as? String }.filter { $0.count > 2 }
        #expect(left == [], "no file is left beside the database")
    }

    @Test func chunksInPostgreSQLMoveIntoTheBucketWhileANodeServes() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("files-copy-pg")
            try await Self.move(
                in: folder, database: ["SHARE_DATABASE_URL": try TestPostgres.url(of: name)], copyArguments: [], stopsForTheCopy: false)
            let chunks = try await TestPostgres.withClient(database: name) { client in
                let rows = try await client.query("SELECT count(*) FROM share_blob_chunk")
                for try await count in rows.decode(Int64.self) { return count }
                return -1
            }
            #expect(chunks == 0, "no chunk is left in the database")
        }
    }

    /// `shared migrate` of a SQLite history whose files are in a bucket: the files stay there, the PostgreSQL copy
    /// names the same objects, and a node on it opens them; not a byte of them goes into the database.
    @Test func aHistoryWithFilesInABucketMigratesToPostgreSQLNamingTheSameObjects() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("files-migrate")
            let bucket = try TestS3.daemonEnvironment()
            let sqlite = try Daemon(folder: folder, environment: bucket)
            let file = folder.appending(path: "deck.pdf")
            try randomBytes(6 * 1_048_576 + 11, writtenTo: file)
            let added = try share(["add", "--json", file.path], server: sqlite.address)
            let link = try #require(try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8)).link)
            #expect(sqlite.stop() == 0)

            let url = try TestPostgres.url(of: name)
            let migrated = try Daemon.run(
                ["migrate", "--to", url, "--db", folder.appending(path: "share.db").path], in: folder, environment: bucket, seconds: 120)
            #expect(migrated.status == 0 && migrated.output.contains("and 1 files"), "\(migrated.output)")
            let node = try Daemon(
                folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: bucket.merging(["SHARE_DATABASE_URL": url]) { $1 })
            try await Self.expectOpening([(link, try Data(contentsOf: file))], through: node)
            let stored = try await TestPostgres.withClient(database: name) { client in
                let rows = try await client.query("SELECT count(object), (SELECT count(*) FROM share_blob_chunk) FROM share_blob")
                for try await (objects, chunks) in rows.decode((Int64, Int64).self) { return [objects, chunks] }
                return []
            }
            #expect(stored == [1, 0], "one blob naming its object, no chunk")
        }
    }

    /// A file whose bytes rotted on the disk no longer has the SHA-256 it was shared with: the copy stops, saying so,
    /// and the file stays where it is, named by nothing in the bucket.
    @Test func aFileThatNoLongerMatchesItsHashStaysAndTheCopySaysSo() async throws {
        let folder = try temporaryFolder("files-copy-rotten")
        let database = folder.appending(path: "share.db").path
        let local = try Daemon(folder: folder)
        let file = folder.appending(path: "scan.pdf")
        try randomBytes(40_000, writtenTo: file)
        #expect(try share(["add", file.path], server: local.address).status == 0)
        #expect(local.stop() == 0)
        let blobs = database + ".files/blobs"
        let kept = try #require(FileManager.default.enumerator(atPath: blobs)?.compactMap { $0 as? String }.first { $0.count > 2 })
        let handle = try FileHandle(forWritingTo: URL(filePath: blobs + "/" + kept))
        try handle.seek(toOffset: 1_000)
        try handle.write(contentsOf: Data([0xFF, 0x00, 0xFF]))
        try handle.close()

        let copied = try Daemon.run(["files", "copy", "--to", "s3", "--db", database], in: folder, environment: try TestS3.daemonEnvironment())
        #expect(copied.status != 0 && copied.output.contains("read back differs from its bytes"), "\(copied.output)")
        #expect(FileManager.default.fileExists(atPath: blobs + "/" + kept), "the file stays with the history")
    }

    /// Two files shared while the bytes are kept with the history (one of several parts in the bucket, one small),
    /// then the configuration names a bucket, and the copy runs: each file opens by its link before and after.
    private static func move(in folder: URL, database: [String: String], copyArguments: [String], stopsForTheCopy: Bool) async throws {
        let bucket = try TestS3.daemonEnvironment()
        let arguments = ["--listen", "127.0.0.1:0"] + copyArguments
        let local = try Daemon(folder: folder, arguments: arguments, environment: database)
        var files: [(link: String, bytes: Data)] = []
        for (name, size) in [("film.mp4", 11 * 1_048_576 + 7), ("notes.txt", 300)] {
            let file = folder.appending(path: name)
            try randomBytes(size, writtenTo: file)
            let added = try share(["add", "--json", file.path], server: local.address)
            let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
            files.append((try #require(record.link), try Data(contentsOf: file)))
        }
        #expect(local.stop() == 0)

        let environment = database.merging(bucket) { $1 }
        var node: Daemon? = try Daemon(folder: folder, arguments: arguments, environment: environment)
        try await expectOpening(files, through: try #require(node))
        if stopsForTheCopy { #expect(node?.stop() == 0) }
        let copied = try Daemon.run(["files", "copy", "--to", "s3"] + copyArguments, in: folder, environment: environment, seconds: 120)
        #expect(copied.status == 0 && copied.output.contains("moved 2 files (11.5 MB)"), "\(copied.output)")
        let again = try Daemon.run(["files", "copy", "--to", "s3"] + copyArguments, in: folder, environment: environment)
        #expect(again.status == 0 && again.output.contains("nothing to move"), "\(again.output)")
        if stopsForTheCopy { node = try Daemon(folder: folder, arguments: arguments, environment: environment) }
        try await expectOpening(files, through: try #require(node))
        let checked = try Daemon.run(["check"] + copyArguments, in: folder, environment: environment)
        #expect(checked.status == 0 && checked.output.contains("2 objects of shares (11534643 bytes) whole"), "\(checked.output)")
    }

    private static func expectOpening(_ files: [(link: String, bytes: Data)], through node: Daemon) async throws {
        for (index, file) in files.enumerated() {
            let link = file.link.replacing(/^http:\/\/[^\/]+/, with: node.address)
            let fetched = node.folder.appending(path: "fetched-\(index)-\(UUID().uuidString)")
            let got = try share(["get", link, "-o", fetched.path], server: node.address)
            #expect(got.status == 0, "\(link): \(got.stderr)")
            #expect(try Data(contentsOf: fetched) == file.bytes, "\(link) opens to the bytes shared")
        }
    }
}
