import AsyncHTTPClient
import Foundation
import NIOCore
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareObjectStore

/// The calls `shared` makes to an object store, against a real one (SeaweedFS): what a user would lose if one broke
/// is named by each test.
struct S3ClientTests {
    static func sha256(_ bytes: [UInt8]) -> String { SignatureV4.sha256(bytes) }

    static func put(_ client: S3Client, _ key: String, _ bytes: [UInt8]) async throws {
        try await client.put(key, ByteBuffer(bytes: bytes), sha256: sha256(bytes))
    }

    /// A file's bytes come back whole, and any range of them, under a name with spaces, signs and accents.
    @Test func anObjectComesBackWholeAndByRange() async throws {
        let client = try TestS3.client()
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let key = "shares/ab/report 2021 (1)+ü~%.pdf"
        try await Self.put(client, key, bytes)
        #expect(try await TestS3.bytes(client.get(key)) == bytes)
        let part = try #require(try await client.get(key, range: 1000...1999))
        #expect(part.length == 1000)
        #expect(part.size == 100_000)
        #expect(try await TestS3.bytes(part) == Array(bytes[1000...1999]))
        #expect(try await client.size(of: key) == 100_000)
        try await client.delete(key)
        #expect(try await client.get(key) == nil)
        #expect(try await client.size(of: key) == nil)
        try await client.delete(key)
    }

    /// A download of many socket reads arrives whole and in order, and a recipient who stops taking it for longer
    /// than the client's patience still gets every byte: only a store that falls silent fails a read, never a slow
    /// reader.
    @Test func aLargeObjectComesBackWholeToAReaderWhoPausesLongerThanThePatience() async throws {
        let client = try TestS3.client(timeout: .seconds(5))
        let bytes = (0..<(12 * 1_048_576)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
        try await Self.put(client.within(.seconds(60)), "large", bytes)
        // Its head within the client's 5 s: a store slowed by the rest of the suite is asked again.
        var answered: S3Client.Object?
        try await waitUntil("the object's head", within: .seconds(120)) {
            answered = try? await client.get("large")
            return answered != nil
        }
        var pieces = try #require(answered).body.makeAsyncIterator()
        var received = Array((try await pieces.next())?.readableBytesView ?? [])
        // A recipient whose connection stalls: the store's answer waits meanwhile, unread.
        try await Task.sleep(for: .seconds(7))
        while let piece = try await pieces.next() { received += piece.readableBytesView }
        #expect(received.count == bytes.count)
        #expect(received == bytes)
    }

    /// `shared check` lists every object: pages follow one another until the last, none missed or repeated.
    @Test func aListingPagesThroughEveryKeyUnderItsPrefix() async throws {
        let client = try TestS3.client()
        for index in 0..<5 { try await Self.put(client, "blobs/\(index)", Array(repeating: 7, count: index + 1)) }
        try await Self.put(client, "other/x", [1])
        var listed: [String: Int64] = [:]
        var token: String?
        var pages = 0
        repeat {
            let page = try await client.list(prefix: "blobs/", after: token, limit: 2)
            for object in page.objects { listed[object.key] = object.size }
            token = page.next
            pages += 1
        } while token != nil
        #expect(listed == ["blobs/0": 1, "blobs/1": 2, "blobs/2": 3, "blobs/3": 4, "blobs/4": 5])
        #expect(pages == 3)
    }

    /// A resumable upload's parts become one object; an abandoned one leaves nothing.
    @Test func aMultipartUploadBecomesOneObjectAndAnAbortedOneNothing() async throws {
        let client = try TestS3.client()
        let first = (0..<(5 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0) }
        let second = Array("the rest".utf8)
        let upload = try await client.startMultipart("big")
        let etag1 = try await client.putPart("big", upload: upload, number: 1, ByteBuffer(bytes: first), sha256: Self.sha256(first))
        let etag2 = try await client.putPart("big", upload: upload, number: 2, ByteBuffer(bytes: second), sha256: Self.sha256(second))
        try await client.completeMultipart("big", upload: upload, parts: [(1, etag1), (2, etag2)])
        #expect(try await client.size(of: "big") == Int64(first.count + second.count))
        #expect(
            try await TestS3.bytes(client.get("big", range: Int64(first.count - 2)...Int64(first.count + 1))) == Array(first.suffix(2))
                + Array(second.prefix(2)))

        let abandoned = try await client.startMultipart("abandoned")
        _ = try await client.putPart("abandoned", upload: abandoned, number: 1, ByteBuffer(bytes: second), sha256: Self.sha256(second))
        try await client.abortMultipart("abandoned", upload: abandoned)
        try await client.abortMultipart("abandoned", upload: abandoned)
        #expect(try await client.size(of: "abandoned") == nil)
    }

    /// `downloads = "redirect"` hands out such a URL: it opens the object with no key, and not once changed.
    @Test func aPresignedURLOpensItsObjectAndNothingElse() async throws {
        let client = try TestS3.client()
        try await Self.put(client, "shared.txt", Array("hello".utf8))
        let url = client.presignedURL(of: "shared.txt", for: 300)
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        #expect(response.status == .ok)
        #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "hello")
        let other = url.replacingOccurrences(of: "shared.txt", with: "other.txt")
        let refused = try await HTTPClient.shared.execute(HTTPClientRequest(url: other), timeout: .seconds(30))
        #expect(refused.status == .forbidden)
    }

    /// At start `shared` says what is wrong with a bucket, in words an operator can act on.
    @Test func aWrongSecretOrBucketIsNamedByTheStoresOwnCode() async throws {
        let wrongSecret = try TestS3.client(credentials: S3Credentials(accessKeyID: "share-test-key", secretAccessKey: "not-it"))
        await #expect { try await wrongSecret.checkBucket() } throws: { ($0 as? S3Failure)?.code == "SignatureDoesNotMatch" }
        // Checked twice: the check itself makes no bucket.
        let noBucket = try TestS3.client(bucket: "no-such-bucket-\(UInt32.random(in: 0...UInt32.max))")
        await #expect { try await noBucket.checkBucket() } throws: { ($0 as? S3Failure)?.code == "NoSuchBucket" }
        await #expect { try await noBucket.checkBucket() } throws: { ($0 as? S3Failure)?.code == "NoSuchBucket" }
        try await TestS3.client().checkBucket()
    }

    /// A store nobody listens for is a failure that names it, not a hang.
    @Test func aStoreThatIsNotThereFailsNamingIt() async throws {
        let port = try freePort()
        let location = try #require(S3Location(endpoint: "http://127.0.0.1:\(port)", bucket: "b", region: "us-east-1", pathStyle: true))
        let client = S3Client(location: location, credentials: TestS3.credentials, timeout: .seconds(3))
        await #expect {
            try await client.size(of: "x")
        } throws: {
            guard case .unreachable(let store, _) = $0 as? S3Failure else { return false }
            return store == "bucket b at http://127.0.0.1:\(port)"
        }
    }
}
