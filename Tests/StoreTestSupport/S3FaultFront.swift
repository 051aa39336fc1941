import Foundation
import NIOCore
import ShareChildProcess
import ShareObjectStore
import ShareTestSupport

/// `scripts/s3-faults` in front of the tests' store: the requests its rules name are answered with an error of its
/// own (503 `SlowDown`, 500…), as a busy or failing store answers, and the rest pass on to the real store.
public final class S3FaultFront: Sendable {
    public let port: Int
    private let log: String
    private let process: ChildProcess

    /// `rules`: `METHOD:COUNT:STATUS:CODE` each, as the script takes them.
    public init(rules: [String]) throws {
        port = try freePort()
        log = FileManager.default.temporaryDirectory.appending(path: "s3-faults-\(UUID().uuidString).log").path
        process = ChildProcess()
        process.executableURL = URL(filePath: Self.scriptPath)
        process.arguments = [String(port), try TestS3.endpoint(), log] + rules
        try process.run()
        let log = log
        try waitUntilBlocking("the store's front listening") { FileManager.default.fileExists(atPath: log) }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: log)
    }

    /// A client of the test bucket through the front, under a new prefix of its own.
    public func client(timeout: TimeAmount) throws -> S3Client {
        let prefix = "fault-\(UUID().uuidString)/"
        guard
            let location = S3Location(
                endpoint: "http://127.0.0.1:\(port)", bucket: "share-test", region: "us-east-1", prefix: prefix, pathStyle: true)
        else { throw TestS3.NoStore() }
        return S3Client(location: location, credentials: TestS3.credentials, timeout: timeout)
    }

    /// The requests the front saw, in order: `METHOD STATUS` each.
    public func seen() throws -> [String] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private static let scriptPath = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../scripts/s3-faults")
        .standardized.path
}
