import AsyncHTTPClient
import Foundation
import NIOCore
import ShareObjectStore
import Synchronization

/// The S3 store the tests use: the one `scripts/s3-store start` made, named by `SHARE_TEST_S3` (its folder), as
/// `scripts/test` sets it. Each test keeps its objects under a prefix of its own in the bucket `share-test`.
enum TestS3 {
    struct NoStore: Error, CustomStringConvertible {
        var description: String {
            "no S3 store for the tests: run scripts/test, or set SHARE_TEST_S3 to the folder scripts/s3-store start prints"
        }
    }

    static let credentials = S3Credentials(accessKeyID: "share-test-key", secretAccessKey: "share-test-secret")

    /// The store's folder (its pid and endpoint files).
    static func folder() throws -> String {
        guard let folder = ProcessInfo.processInfo.environment["SHARE_TEST_S3"], !folder.isEmpty else { throw NoStore() }
        return folder
    }

    static func endpoint() throws -> String {
        try String(contentsOfFile: folder() + "/endpoint", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let made = Atomic<Int>(0)

    /// A client of the test bucket under a new prefix of its own.
    static func client(
        bucket: String = "share-test", credentials: S3Credentials = credentials, timeout: TimeAmount = .seconds(30)
    ) throws -> S3Client {
        let prefix = "test-\(getpid())-\(made.add(1, ordering: .relaxed).newValue)/"
        guard let location = S3Location(endpoint: try endpoint(), bucket: bucket, region: "us-east-1", prefix: prefix, pathStyle: true) else {
            throw NoStore()
        }
        return S3Client(location: location, credentials: credentials, timeout: timeout)
    }

    /// Every byte of an object's body.
    static func bytes(_ object: S3Client.Object?) async throws -> [UInt8]? {
        guard let object else { return nil }
        var bytes: [UInt8] = []
        for try await chunk in object.body { bytes += chunk.readableBytesView }
        return bytes
    }
}
