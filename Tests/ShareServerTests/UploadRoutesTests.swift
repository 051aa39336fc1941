import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Uploads in tus 1.0, as a tus client speaks it, and the file a link then gives: resumable both ways, refused
/// clearly, and never run as a page on the service's origin.
@Suite struct UploadRoutesTests {
    private static let tus: HTTPFields = [.init("Tus-Resumable")!: "1.0.0"]
    private static let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }

    private static func metadata(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    private static func start(_ client: any TestClientProtocol, length: Int = bytes.count, metadata: String? = nil) async throws -> TestResponse {
        var headers = tus
        headers[.init("Upload-Length")!] = "\(length)"
        headers[.init("Upload-Metadata")!] = metadata ?? Self.metadata([("filename", "Q1 report.html"), ("folder", "/work"), ("code", "true")])
        return try await client.execute(uri: "/share/uploads", method: .post, headers: headers, body: nil)
    }

    private static func patch(
        _ client: any TestClientProtocol, _ location: String, at offset: Int, _ bytes: ArraySlice<UInt8>
    ) async throws
        -> TestResponse
    {
        var headers = tus
        headers[.init("Upload-Offset")!] = "\(offset)"
        headers[.contentType] = "application/offset+octet-stream"
        return try await client.execute(uri: location, method: .patch, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    @Test(arguments: Backend.allCases)
    func aFileUploadedInTwoPartsOpensAtItsLinkWithRangesAndNeverAsAPage(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let options = try await client.execute(uri: "/share/uploads", method: .options, headers: [:], body: nil)
            #expect(options.headers[.init("Tus-Version")!] == "1.0.0" && options.headers[.init("Tus-Extension")!]?.contains("creation") == true)
            let created = try await Self.start(client)
            #expect(created.status == .created, "\(created.text)")
            let location = try #require(created.headers[.location])
            #expect(location.hasPrefix("/share/uploads/") && created.headers[.init("Upload-Offset")!] == "0")
            #expect(try await Self.patch(client, location, at: 0, Self.bytes[..<100_000]).status == .noContent)
            #expect(try await client.send(.get, "/share").text == "[]", "nothing shows before the last byte")
            let conflict = try await Self.patch(client, location, at: 0, Self.bytes[..<100_000])
            #expect(conflict.status == .conflict && conflict.headers[.init("Upload-Offset")!] == "100000", "the offset held, to resume from")
            let head = try await client.execute(uri: location, method: .head, headers: Self.tus, body: nil)
            #expect(head.headers[.init("Upload-Offset")!] == "100000" && head.headers[.cacheControl] == "no-store")
            let done = try await Self.patch(client, location, at: 100_000, Self.bytes[100_000...])
            #expect(done.status == .ok)
            let share = try done.decode(ShareRecord.self)
            #expect(share.name == "Q1 report.html" && share.folder == "/work" && share.size == 300_000 && share.code?.count == 6)
            let listed = try await client.send(.get, "/share?q=Q1").decode([ShareRecord].self)
            #expect(share.stored == true && listed.map(\.stored) == [true], "its record says the service holds its bytes")
            let file = "\(try #require(share.link))/file?code=\(try #require(share.code))"

            let whole = try await client.send(.get, file)
            #expect(whole.status == .ok && Array(buffer: whole.body) == Self.bytes)
            #expect(whole.headers[.contentType] == "application/octet-stream" && whole.headers[.init("X-Content-Type-Options")!] == "nosniff")
            #expect(whole.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true, "a shared HTML file never runs on this origin")
            #expect(whole.headers[.contentDisposition] == #"attachment; filename="Q1 report.html"; filename*=UTF-8''Q1%20report.html"#)
            let etag = try #require(whole.headers[.eTag])
            #expect(etag.count == 34, "a strong ETag, the link's own")

            let rest = try await client.send(.get, file, headers: [.range: "bytes=299000-"])
            #expect(rest.status == .partialContent && rest.headers[.contentRange] == "bytes 299000-299999/300000")
            #expect(Array(buffer: rest.body) == Array(Self.bytes[299_000...]))
            let middle = try await client.send(.get, file, headers: [.range: "bytes=10-19"])
            #expect(middle.status == .partialContent && Array(buffer: middle.body) == Array(Self.bytes[10..<20]))
            let past = try await client.send(.get, file, headers: [.range: "bytes=300000-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */300000")
            let stale = try await client.send(.get, file, headers: [.range: "bytes=10-19", .ifRange: #""other""#])
            #expect(stale.status == .ok, "a range of other bytes than these is answered with the whole file")
            #expect(try await client.send(.get, file, headers: [.ifNoneMatch: etag]).status == .notModified)
            #expect(try await client.send(.head, file).headers[.contentLength] == "300000")
            #expect(try await client.send(.get, "\(share.link!)/file").status == .forbidden, "never without its code")

            let log = try await client.send(.get, "/share/\(share.id)/downloads").decode([ShareDownload].self)
            #expect(log.map(\.bytes) == [300_000, 10, 1000, 300_000], "every request that sent bytes, newest first; 416, 304 and HEAD not")
            #expect(log.map(\.complete) == [true, false, true, true], "a range short of the end completes no download")
            let events = try await client.send(.get, "/share/\(share.id)/events").decode([ShareEvent].self)
            #expect(events.map(\.action) == [.uploaded, .downloaded, .downloaded, .downloaded], "each whole download, once its last byte went")
            #expect(events.compactMap(\.downloads) == [1, 2, 3])
        }
    }

    @Test(arguments: Backend.allCases)
    func aOneDownloadFileIsSentWholeOnceHoweverItsRangesAreCut(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let file = try await Self.uploaded(client, maxDownloads: 1)
            let first = try await client.send(.get, file, headers: [.range: "bytes=0-149999"])
            let second = try await client.send(.get, file, headers: [.range: "bytes=150000-299998"])
            #expect(first.status == .partialContent && second.status == .partialContent)
            let last = try await client.send(.get, file, headers: [.range: "bytes=299999-"])
            #expect(last.status == .partialContent && [first, second, last].flatMap { Array(buffer: $0.body) } == Self.bytes)
            #expect(try await client.send(.get, file, headers: [.range: "bytes=0-0"]).status == .gone, "its one download is made")

            let again = try await Self.uploaded(client, maxDownloads: 1)
            #expect(try await client.send(.get, again, headers: [.range: "bytes=0-299998"]).status == .partialContent)
            #expect(try await client.send(.get, again).status == .gone, "a whole file more than its one download would send")
            #expect(try await client.send(.get, again, headers: [.range: "bytes=-1"]).status == .gone, "the link is spent")

            let records = try await client.send(.get, "/share?sort=name").decode([ShareRecord].self)
            #expect(records.map(\.downloads) == [1, 1] && records.map(\.state) == [.expired, .expired])
            let cutUp = try #require(records.first { "\($0.link ?? "")/file" == file })
            let cut = try await client.send(.get, "/share/\(cutUp.id)/downloads").decode([ShareDownload].self)
            #expect(cut.map(\.bytes) == [1, 149_999, 150_000] && cut.map(\.complete) == [true, false, false], "every range in the log")
        }
    }

    @Test(arguments: Backend.allCases)
    func aFilesTagIsItsLinksOwnAndNeverTheHashOfItsBytes(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let (one, other) = (try await Self.uploaded(client), try await Self.uploaded(client))
            let tags = (try await client.send(.head, one).headers[.eTag], try await client.send(.head, other).headers[.eTag])
            #expect(tags.0 != nil && tags.0 != tags.1, "the same bytes under two links: two tags that say nothing of the bytes")
            let unchanged = try await client.send(.get, one, headers: [.ifNoneMatch: "*"])
            #expect(unchanged.status == .notModified && unchanged.body.readableBytes == 0)
            #expect(try await client.send(.get, one, headers: [.ifNoneMatch: #""x", \#(tags.0 ?? "")"#]).status == .notModified)
            let id = try await client.send(.get, "/share?sort=name&limit=1").decode([ShareRecord].self)[0].id
            #expect(try await client.send(.get, "/share/\(id)/downloads").decode([ShareDownload].self).isEmpty, "nothing was sent")
        }
    }

    @Test(arguments: [
        ("bytes=0-9223372036854775807", HTTPResponse.Status.partialContent, "bytes 0-299999/300000" as String?),
        ("bytes=0-99999999999999999999999", .partialContent, "bytes 0-299999/300000"),
        ("bytes=-9223372036854775807", .partialContent, "bytes 0-299999/300000"),
        ("bytes=299999-9223372036854775807", .partialContent, "bytes 299999-299999/300000"),
        ("bytes=9223372036854775807-", .rangeNotSatisfiable, "bytes */300000"),
        ("bytes=+1-2", .ok, nil),
        ("bytes=1-+2", .ok, nil),
        ("bytes= 5-", .partialContent, "bytes 5-299999/300000"),
    ])
    func rangesOfAnySizeAreAnsweredAndNeverOverflow(range: String, status: HTTPResponse.Status, contentRange: String?) async throws {
        try await withServer { client in
            let file = try await Self.uploaded(client)
            for method in [HTTPRequest.Method.head, .get] {
                let answer = try await client.send(method, file, headers: [.range: range])
                #expect(answer.status == status && answer.headers[.contentRange] == contentRange, "\(method) \(range)")
            }
            #expect(try await client.send(.get, "/healthz").status == .ok, "the daemon still answers")
        }
    }

    /// The link of a new share of `bytes`, whose file opens with no code; its page names a sender and a message.
    private static func uploaded(_ client: any TestClientProtocol, maxDownloads: Int? = nil) async throws -> String {
        var pairs = [("filename", "film \(UUID().uuidString).mp4"), ("sender", "Zoé"), ("message", "Our film,\nuncut.")]
        if let maxDownloads { pairs.append(("max-downloads", "\(maxDownloads)")) }
        let location = try #require(try await start(client, metadata: metadata(pairs)).headers[.location])
        let done = try await patch(client, location, at: 0, bytes[...]).decode(ShareRecord.self)
        #expect(done.sender == "Zoé" && done.message == "Our film,\nuncut.", "the link's page says what the upload's start said")
        return "\(try #require(done.link))/file"
    }

    @Test func badUploadsAreRefusedNamingWhatIsWrong() async throws {
        try await withServer({ $0.server.maxUploadBytes = 1000 }) { client in
            let noVersion = try await client.execute(uri: "/share/uploads", method: .post, headers: [.init("Upload-Length")!: "10"], body: nil)
            #expect(noVersion.status == .badRequest && noVersion.problemDetail.contains("Tus-Resumable"))
            let otherVersion = try await client.execute(
                uri: "/share/uploads", method: .post, headers: [.init("Upload-Length")!: "10", .init("Tus-Resumable")!: "0.2.2"], body: nil)
            #expect(otherVersion.status == .preconditionFailed && otherVersion.headers[.init("Tus-Version")!] == "1.0.0")
            let tooLarge = try await Self.start(client, length: 1001)
            #expect(tooLarge.status == .contentTooLarge && tooLarge.problemDetail.contains("1000"))
            let noName = try await Self.start(client, length: 10, metadata: Self.metadata([("folder", "/")]))
            #expect(noName.status == .badRequest && noName.problemDetail.contains("name"))
            let badCode = try await Self.start(client, length: 10, metadata: Self.metadata([("filename", "a.txt"), ("code", "no")]))
            #expect(badCode.status == .badRequest && badCode.problemDetail.contains("code"))
            let badSender = try await Self.start(client, length: 10, metadata: Self.metadata([("filename", "a.txt"), ("sender", "a\u{202E}b")]))
            #expect(badSender.status == .badRequest && badSender.problemDetail.contains("'sender'"))
            let location = try #require(try await Self.start(client, length: 10).headers[.location])
            var plain = Self.tus
            plain[.init("Upload-Offset")!] = "0"
            plain[.contentType] = "application/json"
            let wrongType = try await client.execute(uri: location, method: .patch, headers: plain, body: ByteBuffer(string: "{}"))
            #expect(wrongType.status == .unsupportedMediaType)
            let tooMuch = try await Self.patch(client, location, at: 0, Self.bytes[..<11])
            #expect(tooMuch.status == .badRequest && tooMuch.problemDetail.contains("Upload-Length"))
            #expect(try await client.execute(uri: location, method: .delete, headers: Self.tus, body: nil).status == .noContent)
            #expect(try await client.execute(uri: location, method: .head, headers: Self.tus, body: nil).status == .notFound)
            #expect(try await client.execute(uri: "/share/uploads/nope", method: .head, headers: Self.tus, body: nil).status == .notFound)
        }
    }
}
