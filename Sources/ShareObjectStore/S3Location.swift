import Foundation

/// Where a bucket is: the store's endpoint, the bucket, its region, the prefix every key goes under, and whether the
/// bucket is named in the path (most self-hosted stores) or in the host name (AWS).
public struct S3Location: Sendable, Equatable {
    /// `http` or `https`.
    public var scheme: String
    public var host: String
    public var port: Int?
    public var bucket: String
    public var region: String
    public var prefix: String
    public var pathStyle: Bool

    /// The location of `bucket` at `endpoint` (`https://s3.eu-central-1.amazonaws.com`); nil when the endpoint is not an
    /// `http` or `https` URL with a host and nothing else.
    public init?(endpoint: String, bucket: String, region: String, prefix: String = "", pathStyle: Bool) {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port
        self.bucket = bucket
        self.region = region
        self.prefix = prefix
        self.pathStyle = pathStyle
    }

    /// The `Host` header of requests for the bucket.
    var hostHeader: String {
        let name = pathStyle ? host : "\(bucket).\(host)"
        return port.map { "\(name):\($0)" } ?? name
    }

    /// The path of `key` (under the prefix) as sent and signed; nil: the bucket itself.
    func path(of key: String?) -> String {
        let bucketPath = pathStyle ? "/\(AWSEncoding.encode(bucket))" : ""
        guard let key else { return bucketPath + "/" }
        return bucketPath + "/" + AWSEncoding.encode(prefix + key, keepingSlashes: true)
    }

    /// The URL of `path` with `query` (encoded as signed).
    func url(_ path: String, query: [(name: String, value: String)] = []) -> String {
        let base = "\(scheme)://\(hostHeader)\(path)"
        guard !query.isEmpty else { return base }
        return base + "?" + query.map { "\(AWSEncoding.encode($0.name))=\(AWSEncoding.encode($0.value))" }.joined(separator: "&")
    }

    /// How messages name the bucket: `bucket share-files at https://s3.example.org`.
    public var description: String {
        "bucket \(bucket) at \(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }
}
