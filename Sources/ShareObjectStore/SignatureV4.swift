import Crypto
import Foundation

/// AWS Signature Version 4 with HMAC-SHA256: what proves to an S3-compatible store that a request comes from the
/// holder of a key and was not changed on the way. A request is signed in its `Authorization` header, or in its URL's
/// query (a presigned URL, which anyone holding it may use until it expires).
public struct SignatureV4: Sendable {
    public let credentials: S3Credentials
    public let region: String
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What a signature covers.
    public struct Request: Sendable {
        public var method: String
        /// The path as sent: its segments percent-encoded (`AWSEncoding`), its `/` kept.
        public var path: String
        /// The query's parameters, not encoded.
        public var query: [(name: String, value: String)]
        /// Every header signed, `host` among them; a name given twice signs its values in order, joined by commas.
        public var headers: [(name: String, value: String)]
        /// The body's SHA-256 in hex, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        public init(
            method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)],
            payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The body's hash that a request without a signed body declares.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    static let algorithm = "AWS4-HMAC-SHA256"

    /// The `Authorization` header's value for `request`, made at `date` (which its `x-amz-date` header must say).
    public func authorization(for request: Request, at date: Date) -> String {
        let time = SigningTime(date)
        let (canonical, signedHeaders) = canonicalRequest(request)
        let signature = sign(canonical, at: time)
        return "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(time)), SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// The query that presigns a request of `method` for `path` on `host` at `date`, valid for `seconds`: the
    /// parameters to append, `X-Amz-Signature` last.
    public func presignedQuery(
        method: String, path: String, host: String, query: [(name: String, value: String)] = [], at date: Date, expiresIn seconds: Int
    ) -> [(name: String, value: String)] {
        let time = SigningTime(date)
        let signing: [(name: String, value: String)] = [
            ("X-Amz-Algorithm", Self.algorithm), ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(time))"),
            ("X-Amz-Date", time.stamp), ("X-Amz-Expires", String(seconds)), ("X-Amz-SignedHeaders", "host"),
        ]
        let request = Request(
            method: method, path: path, query: query + signing, headers: [("host", host)], payloadHash: Self.unsignedPayload)
        let signature = sign(canonicalRequest(request).text, at: time)
        return query + signing + [("X-Amz-Signature", signature)]
    }

    /// The canonical form of `request` (method, path, sorted query, sorted headers, signed header names, payload hash)
    /// and the names of its signed headers.
    func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        let parameters: [(name: String, value: String)] = request.query.map { (AWSEncoding.encode($0.name), AWSEncoding.encode($0.value)) }
        let sorted = parameters.sorted { (first: (name: String, value: String), second: (name: String, value: String)) -> Bool in
            first.name == second.name ? first.value < second.value : first.name < second.name
        }
        let query = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        var headers: [String: [String]] = [:]
        for (name, value) in request.headers { headers[name.lowercased(), default: []].append(Self.trimmed(value)) }
        let names = headers.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let text = [request.method, request.path, query, canonicalHeaders, signedHeaders, request.payloadHash].joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The signature of a canonical request made at `time`, in hex.
    func sign(_ canonicalRequest: String, at time: SigningTime) -> String {
        let stringToSign = [Self.algorithm, time.stamp, scope(time), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day: time.day)))
    }

    /// The key of one day, region and service, derived from the secret.
    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    private func scope(_ time: SigningTime) -> String {
        "\(time.day)/\(region)/\(service)/aws4_request"
    }

    /// A header's value as signed: no space at either end, each run of spaces one space.
    private static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// The SHA-256 of `bytes` in hex, as a request's payload hash says it.
    public static func sha256(_ bytes: some DataProtocol) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The payload hash of a request without a body.
    static let emptyPayload = sha256(Data())

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
