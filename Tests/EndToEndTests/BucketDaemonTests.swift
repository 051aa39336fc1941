import Foundation
import NIOCore
import ShareKit
import ShareObjectStore
import ShareTestSupport
import StoreTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `shared` with its files in a bucket (`[files] store = "s3"`), as an operator meets it: a bucket it cannot use
/// stops it at start with one line saying why, and `/readyz` says whether the store answers. Were it otherwise, a
/// node would accept uploads it can only fail, and a balancer would keep sending them there.
@Suite struct BucketDaemonTests {
    @Test func aBucketThatCannotBeUsedStopsTheStartWithOneLineSayingWhy() throws {
        let folder = try temporaryFolder("bucket-start")
        let database = ["SHARE_DATABASE_URL": try TestPostgres.url(of: "postgres")]
        for (variables, reason) in [
            (try TestS3.daemonEnvironment(secret: "not-the-secret"), "SignatureDoesNotMatch"),
            (try TestS3.daemonEnvironment(bucket: "no-such-bucket"), "NoSuchBucket"),
            (try TestS3.daemonEnvironment(endpoint: "http://127.0.0.1:\(try freePort())"), "does not answer"),
        ] {
            let run = try Daemon.run(["--listen", "127.0.0.1:0"], in: folder, environment: database.merging(variables) { $1 }, seconds: 90)
            let said = run.output.split(separator: "\n").filter { $0.contains("critical") }
            #expect(
                run.status != 0 && said.count == 1 && said[0].contains(reason) && said[0].contains("cannot keep files in the bucket"), "\(run.output)"
            )
            #expect(!run.output.contains("not-the-secret"), "the secret is never repeated")
        }
        var withoutKey = try TestS3.daemonEnvironment()
        withoutKey["AWS_SECRET_ACCESS_KEY"] = nil
        let run = try Daemon.run(["--listen", "127.0.0.1:0"], in: folder, environment: database.merging(withoutKey) { $1 })
        #expect(run.status != 0 && run.output.contains("AWS_SECRET_ACCESS_KEY"), "\(run.output)")
    }

    /// On the SQLite database, a frozen store: `/readyz` says 503 within its own short time, `/healthz` still 200, and
    /// a download from it ends with a 503 naming the store; awake again, the node is ready by itself.
    @Test func readinessFollowsTheStoreAndADownloadFromAFrozenOneIsA503NamingIt() async throws {
        let store = try OwnS3Store()
        let folder = try temporaryFolder("bucket-ready")
        let node = try Daemon(
            folder: folder, arguments: ["--listen", "127.0.0.1:0"],
            environment: ["SHARE_SERVER_REQUEST_TIMEOUT_SECONDS": "5"]
                .merging(try TestS3.daemonEnvironment(endpoint: store.endpoint())) { $1 })
        let file = folder.appending(path: "notes.txt")
        try randomBytes(70_000, writtenTo: file)
        let added = try share(["add", file.path], server: node.address)
        let id = try #require(added.stdout.split(separator: " ").first.map(String.init), "\(added.stderr)")
        #expect(try await http("GET", "\(node.address)/readyz").status == 200)

        try store.pause()
        #expect(try await http("GET", "\(node.address)/readyz").status == 503)
        #expect(try await http("GET", "\(node.address)/healthz").status == 200)
        let refused = try await http("GET", "\(node.address)/share/\(id)/file")
        #expect(refused.status == 503 && refused.body.contains("the object store (bucket share-test"), "\(refused)")
        try store.resume()
        try await waitUntil("the node ready again") { try await http("GET", "\(node.address)/readyz").status == 200 }
        let fetched = folder.appending(path: "fetched.txt")
        #expect(try share(["get", id, "-o", fetched.path], server: node.address).status == 0)
        #expect(try Data(contentsOf: fetched) == Data(contentsOf: file))
        withExtendedLifetime(node) {}
    }

    /// `downloads = "redirect"`: a link's file is a 302 to a presigned URL of its object (for a CDN in front), which
    /// gives the bytes; handing it out counts the download, so a link of one download hands out one.
    @Test func aRedirectHandsOutAPresignedURLAndCountsTheDownload() async throws {
        let folder = try temporaryFolder("bucket-redirect")
        let node = try Daemon(
            folder: folder, arguments: ["--listen", "127.0.0.1:0"],
            environment: ["SHARE_FILES_DOWNLOADS": "redirect"].merging(try TestS3.daemonEnvironment()) { $1 })
        let file = folder.appending(path: "plan.pdf")
        try randomBytes(6 * 1_048_576 + 3, writtenTo: file)
        let added = try share(["add", file.path, "--max-downloads", "1"], server: node.address)
        let lines = added.stdout.split(separator: "\n")
        let link = try #require(lines.first { $0.hasPrefix("  link: ") }.map { String($0.dropFirst("  link: ".count)) }, "\(added.stdout)")
        let handed = try await http("GET", link + "/file", followingRedirects: false)
        let location = try #require(handed.headers["location"], "\(handed)")
        let endpoint = try TestS3.endpoint()
        #expect(handed.status == 302 && location.hasPrefix(endpoint) && location.contains("X-Amz-Signature="), "\(handed)")
        let fetched = folder.appending(path: "fetched.pdf")
        #expect(try share(["get", link, "-o", fetched.path], server: node.address).status != 0, "one download, handed out already")
        var request = URLRequest(url: URL(string: location)!)
        request.httpMethod = "GET"
        let (bytes, _) = try await exchange(request)
        #expect(bytes == (try Data(contentsOf: file)), "the URL gives the file's bytes")
        let id = try #require(added.stdout.split(separator: " ").first.map(String.init))
        #expect(try await http("GET", "\(node.address)/share/\(id)").body.contains(#""downloads":1"#))
        withExtendedLifetime(node) {}
    }

    /// `shared check` with a bucket: an object no share needs (a crash between a write and its record) is counted and
    /// `--repair` deletes it; a share's object gone from the bucket fails the check, naming it.
    @Test func checkFindsObjectsNoShareNeedsAndRepairDeletesThem() async throws {
        let folder = try temporaryFolder("bucket-check")
        let variables = try TestS3.daemonEnvironment()
        let node = try Daemon(folder: folder, environment: variables)
        let file = folder.appending(path: "report.pdf")
        try randomBytes(100_000, writtenTo: file)
        #expect(try share(["add", file.path], server: node.address).status == 0)
        let prefix = try #require(variables["SHARE_FILES_S3_PREFIX"]) + "/"
        let endpoint = try TestS3.endpoint()
        let location = try #require(S3Location(endpoint: endpoint, bucket: "share-test", region: "us-east-1", prefix: prefix, pathStyle: true))
        let client = S3Client(location: location, credentials: TestS3.credentials)
        try await client.put("blobs/left-by-a-crash", ByteBuffer(bytes: [1, 2, 3]), sha256: SignatureV4.sha256([UInt8]([1, 2, 3])))
        let database = folder.appending(path: "share.db").path

        let checked = try Daemon.run(["check", "--db", database], in: folder, environment: variables)
        #expect(checked.status == 0 && checked.output.contains("1 objects of shares (100000 bytes) whole"), "\(checked.output)")
        #expect(checked.output.contains("1 no share needs (3 bytes), which --repair deletes"), "\(checked.output)")
        let repaired = try Daemon.run(["check", "--repair", "--db", database], in: folder, environment: variables)
        #expect(repaired.status == 0 && repaired.output.contains("1 no share needs (3 bytes) deleted"), "\(repaired.output)")
        #expect(try await client.size(of: "blobs/left-by-a-crash") == nil)

        let kept = try #require(try await client.list(prefix: "blobs/").objects.first?.key)
        try await client.delete(kept)
        let failed = try Daemon.run(["check", "--db", database], in: folder, environment: variables)
        #expect(
            failed.status != 0 && failed.output.contains("1 objects of shares are missing or not whole") && failed.output.contains(kept),
            "\(failed.output)")
        withExtendedLifetime(node) {}
    }
}
