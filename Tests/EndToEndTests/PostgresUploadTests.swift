import Foundation
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Files on PostgreSQL with several nodes, in the database or in a bucket: any node takes up an upload another node
/// began, from the chunks or parts it stored. Were it otherwise, a node lost mid-upload would cost the user the whole
/// transfer, or a half file.
@Suite struct PostgresUploadTests {
    /// A node killed while it receives an upload's bytes: nothing of the upload shows meanwhile, the other node holds
    /// every chunk (or part) the killed one stored, and the upload resumes through it to the whole file. In a bucket,
    /// no byte of it is in the database.
    @Test(arguments: [false, true])
    func anUploadWhoseNodeIsKilledResumesThroughTheOtherNode(inABucket: Bool) async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder("upload-two-nodes")
            let environment = ["SHARE_DATABASE_URL": try TestPostgres.url(of: name)].merging(inABucket ? try TestS3.daemonEnvironment() : [:]) { $1 }
            let nodes = try (0..<2).map { _ in try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment) }
            let bytes = [UInt8](try randomBytes(24 * 1_048_576))
            let path = try #require(try await TusRequests.create(nodes[0].address, length: bytes.count, name: "video.mp4"))

            // The first node gets the whole body announced and five and a half MiB of it, then is killed.
            let port = try #require(Int(nodes[0].address.split(separator: ":").last ?? ""))
            let connection = try RawConnection(port: port)
            connection.send(
                "PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(bytes.count)\r\n\r\n")
            let sent = 5 * 1_048_576 + 500_000
            connection.send(bytes: Array(bytes[..<sent]))
            let other = nodes[1].address
            // Chunks are 1 MiB each, parts 5 MiB: four MiB at least are stored, in full.
            try await waitUntil("the other node sees four MiB stored") { try await TusRequests.offset(other + path) >= 4 * 1_048_576 }
            #expect(try await http("GET", "\(other)/share").body == "[]", "nothing shows before the last byte")
            nodes[0].stop(signal: SIGKILL)

            let held = try await TusRequests.offset(other + path)
            #expect(held >= 4 * 1_048_576 && held <= sent, "the chunks the killed node stored, and nothing it did not receive")
            let (finished, _) = try await TusRequests.append(other + path, at: held, bytes[held...])
            #expect(finished.statusCode == 200)
            let listed = try WireJSON.decoder().decode([ShareRecord].self, from: Data(try await http("GET", "\(other)/share").body.utf8))
            let link = try #require(listed.first?.link)
            let saved = folder.appending(path: "saved.mp4")
            #expect(try share(["get", link, "-o", saved.path], server: other).status == 0)
            #expect(try Data(contentsOf: saved) == Data(bytes), "every byte, in order, across the two nodes")
            let chunks = try await TestPostgres.withClient(database: name) { client in
                var count = 0
                for try await rows in try await client.query("SELECT count(*)::bigint FROM share_blob_chunk").decode(Int.self) { count = rows }
                return count
            }
            #expect((chunks == 0) == inABucket, "\(chunks) chunks in the database")
            withExtendedLifetime((nodes, connection)) {}
        }
    }

}
