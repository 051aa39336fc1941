import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ShareHistory
import ShareKit
import ShareObjectStore

/// The bucket `[files] store = "s3"` names, checked before `shared` serves: there, writable, the credentials right.
enum BucketChoice {
    /// The bucket, or nil for files kept with the history; a bucket that fails the check is refused with what is wrong.
    static func open(_ files: FilesSettings, requestTimeout seconds: Int, logger: Logger) async throws -> (any BlobBucket)? {
        guard let client = try await client(files, requestTimeout: seconds) else { return nil }
        logger.info("files in a bucket", metadata: ["bucket": "\(client.location.description)", "prefix": "\(files.s3Prefix)"])
        return S3Bucket(client: client)
    }

    /// A client of the bucket, checked, or nil for files kept with the history.
    static func client(_ files: FilesSettings, requestTimeout seconds: Int) async throws -> S3Client? {
        guard files.store == .s3 else { return nil }
        let key = try files.s3Credentials(environment: ProcessInfo.processInfo.environment)
        guard
            let location = S3Location(
                endpoint: files.s3Endpoint, bucket: files.s3Bucket, region: files.s3Region, prefix: files.s3Prefix, pathStyle: files.s3PathStyle)
        else { throw BucketSetupFailure("[files] s3_endpoint \(files.s3Endpoint) is not the store's URL") }
        // The daemon's own client: a store that stops sending mid-answer is given up after a request's time.
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(Int64(seconds)))))
        let client = S3Client(
            location: location, credentials: S3Credentials(accessKeyID: key.accessKeyID, secretAccessKey: key.secret), http: http,
            timeout: .seconds(Int64(seconds)))
        do {
            try await client.checkBucket()
        } catch {
            throw BucketSetupFailure("cannot keep files in the \(location.description): \(error)")
        }
        return client
    }
}

/// `shared` cannot use the configured bucket; the description says why, never the secret.
struct BucketSetupFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
