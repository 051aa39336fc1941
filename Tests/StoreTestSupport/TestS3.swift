import AsyncHTTPClient
import Foundation
import NIOCore
import ShareChildProcess
import ShareObjectStore
import Synchronization

/// The S3 store the tests use: the one `scripts/s3-store start` made, named by `SHARE_TEST_S3` (its folder), as
/// `scripts/test` sets it. Each test keeps its objects under a prefix of its own in the bucket `share-test`.
public enum TestS3 {
    public struct NoStore: Error, CustomStringConvertible {
        public var description: String {
            "no S3 store for the tests: run scripts/test, or set SHARE_TEST_S3 to the folder scripts/s3-store start prints"
        }
    }

    public static let credentials = S3Credentials(accessKeyID: "share-test-key", secretAccessKey: "share-test-secret")

    /// The store's folder (its pid and endpoint files).
    public static func folder() throws -> String {
        guard let folder = ProcessInfo.processInfo.environment["SHARE_TEST_S3"], !folder.isEmpty else { throw NoStore() }
        return folder
    }

    public static func endpoint() throws -> String {
        try String(contentsOfFile: folder() + "/endpoint", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let made = Atomic<Int>(0)

    /// A client of the test bucket under a new prefix of its own.
    public static func client(
        bucket: String = "share-test", credentials: S3Credentials = credentials, timeout: TimeAmount = .seconds(30)
    ) throws -> S3Client {
        let prefix = "test-\(getpid())-\(made.add(1, ordering: .relaxed).newValue)/"
        guard let location = S3Location(endpoint: try endpoint(), bucket: bucket, region: "us-east-1", prefix: prefix, pathStyle: true) else {
            throw NoStore()
        }
        return S3Client(location: location, credentials: credentials, timeout: timeout)
    }

    /// The variables that make `shared` keep its files in the test bucket, under a prefix of its own.
    public static func daemonEnvironment(endpoint: String? = nil, secret: String? = nil, bucket: String = "share-test") throws -> [String: String] {
        [
            "SHARE_FILES_STORE": "s3", "SHARE_FILES_S3_ENDPOINT": try endpoint ?? self.endpoint(), "SHARE_FILES_S3_BUCKET": bucket,
            "SHARE_FILES_S3_PATH_STYLE": "true", "SHARE_FILES_S3_PREFIX": "daemon-\(getpid())-\(made.add(1, ordering: .relaxed).newValue)",
            "AWS_ACCESS_KEY_ID": credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": secret ?? credentials.secretAccessKey,
        ]
    }

    /// Every byte of an object's body.
    public static func bytes(_ object: S3Client.Object?) async throws -> [UInt8]? {
        guard let object else { return nil }
        var bytes: [UInt8] = []
        for try await chunk in object.body { bytes += chunk.readableBytesView }
        return bytes
    }
}

/// An S3 store of one test's own (`scripts/s3-store`), for a test that freezes it, which the tests sharing the
/// suite's store must never see. Deleted with the value.
public final class OwnS3Store: Sendable {
    /// Its folder (its pid and endpoint files).
    public let folder: String

    public init() throws {
        folder = try Self.script(["start"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = try? Self.script(["stop", folder])
    }

    /// A client of its bucket, whose calls each end by `timeout`.
    public func client(timeout: TimeAmount) throws -> S3Client {
        guard let location = S3Location(endpoint: try endpoint(), bucket: "share-test", region: "us-east-1", pathStyle: true) else {
            throw TestS3.NoStore()
        }
        return S3Client(location: location, credentials: TestS3.credentials, timeout: timeout)
    }

    /// Freezes its processes (SIGSTOP): connections are taken by the system and never answered.
    public func pause() throws {
        _ = try Self.script(["pause", folder])
    }

    public func resume() throws {
        _ = try Self.script(["resume", folder])
    }

    /// Kills its processes (SIGKILL) and deletes its files: a store that is gone.
    public func kill() throws {
        _ = try Self.script(["stop", folder])
    }

    /// Its URL.
    public func endpoint() throws -> String {
        try String(contentsOfFile: folder + "/endpoint", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let scriptPath = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../scripts/s3-store")
        .standardized.path

    private static func script(_ arguments: [String]) throws -> String {
        try ChildProcess.output(of: scriptPath, arguments)
    }
}
