import Foundation

/// `[files]`: where the bytes behind shares are kept: with the history (`local`), or in a bucket of an S3-compatible
/// object store (`s3`), which every node reaches.
public struct FilesSettings: Sendable, Equatable {
    public enum Store: String, Sendable, CaseIterable {
        /// Beside the SQLite database; on PostgreSQL, in it.
        case local
        case s3
    }

    /// How a link's file reaches its recipient from a bucket.
    public enum Downloads: String, Sendable, CaseIterable {
        /// Streamed through `shared`, which counts the download once the last byte is sent.
        case proxy
        /// A 302 to a presigned URL of the object (for a CDN in front), counted when it is handed out.
        case redirect
    }

    public var store = Store.local
    /// The store's URL, `https://s3.eu-central-1.amazonaws.com`.
    public var s3Endpoint = ""
    public var s3Bucket = ""
    public var s3Region = "us-east-1"
    /// Every key goes under it; when given, it ends with `/`.
    public var s3Prefix = ""
    /// The bucket named in the path (`https://host/bucket/key`), as most self-hosted stores want, rather than in the
    /// host name.
    public var s3PathStyle = false
    /// With `s3SecretAccessKeyFile`, the credentials; without them, `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`.
    public var s3AccessKeyID = ""
    public var s3SecretAccessKeyFile: String?
    public var downloads = Downloads.proxy

    /// How long a presigned URL handed out by `downloads = "redirect"` lets its holder read the object.
    public static let redirectSeconds = 300

    public init() {}

    /// The access key and its secret: the configured key id and the first line of its file, else the environment's
    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`. Read when `shared` starts; the error never shows the secret.
    public func s3Credentials(environment: [String: String]) throws(ConfigError) -> (accessKeyID: String, secret: String) {
        if let file = s3SecretAccessKeyFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigError("[files] s3_secret_access_key_file \(file) cannot be read")
            }
            let secret = String(text.prefix { $0 != "\n" && $0 != "\r" })
            guard !secret.isEmpty else { throw ConfigError("[files] s3_secret_access_key_file \(file) is empty") }
            return (s3AccessKeyID, secret)
        }
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw ConfigError(
                "[files] store = \"s3\" needs credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or s3_access_key_id with s3_secret_access_key_file"
            )
        }
        return (id, secret)
    }

    /// The rules that span several keys, checked once every source is read; credentials from `environment` are
    /// looked for, not read.
    func check(environment: [String: String]) throws(ConfigError) {
        guard store == .s3 else {
            if downloads == .redirect {
                throw ConfigError("[files] downloads = \"redirect\" needs store = \"s3\": local files have no URL to hand out")
            }
            return
        }
        if s3Endpoint.isEmpty {
            throw ConfigError("[files] store = \"s3\" needs s3_endpoint, the store's URL such as https://s3.eu-central-1.amazonaws.com")
        }
        if s3Bucket.isEmpty { throw ConfigError("[files] store = \"s3\" needs s3_bucket, the bucket the files go in") }
        if s3AccessKeyID.isEmpty != (s3SecretAccessKeyFile == nil) {
            throw ConfigError(
                "[files] s3_access_key_id and s3_secret_access_key_file go together: give both, or neither to use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
            )
        }
        if s3SecretAccessKeyFile == nil { _ = try s3Credentials(environment: environment) }
    }
}
