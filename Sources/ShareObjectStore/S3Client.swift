import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The calls `shared` makes to an S3-compatible store: objects put, read (with a range), asked about, listed and
/// deleted, and the multipart uploads that resumable uploads become. Every request is signed (`SignatureV4`) and
/// ends by `timeout`; a call that can be repeated without harm is tried again after a passing failure
/// (`S3Failure.isPassing`), 0.2 s later and then twice as long each time, within the same time.
public struct S3Client: Sendable {
    public let location: S3Location
    let signer: SignatureV4
    let http: HTTPClient
    /// For an `https` store: what an object's read over a connection of its own is encrypted with, or why it could not
    /// be made.
    let tls: Result<NIOSSLContext, any Error>?
    /// How long one call may take, its retries included.
    public private(set) var timeout: TimeAmount

    public init(location: S3Location, credentials: S3Credentials, http: HTTPClient = .shared, timeout: TimeAmount = .seconds(30)) {
        self.location = location
        signer = SignatureV4(credentials: credentials, region: location.region)
        self.http = http
        tls = location.scheme == "https" ? Result { try NIOSSLContext(configuration: .makeClientConfiguration()) } : nil
        self.timeout = timeout
    }

    /// The same client, its calls given `timeout` instead.
    public func within(_ timeout: TimeAmount) -> S3Client {
        var client = self
        client.timeout = timeout
        return client
    }

    /// An object: its length and its bytes as they arrive.
    public struct Object: Sendable {
        /// The bytes this answer carries (the range's, when one was asked).
        public let length: Int64
        /// The whole object's size.
        public let size: Int64
        public let body: ObjectBody
    }

    // MARK: - Objects

    /// Stores `bytes` as `key`; `sha256` (hex) is signed with the request, and stores that check it (AWS) refuse bytes
    /// that do not match.
    public func put(_ key: String, _ bytes: ByteBuffer, sha256: String) async throws {
        _ = try await call("PUT", key: key, body: bytes, payloadHash: sha256)
    }

    /// The size of object `key`; nil when there is none.
    public func size(of key: String) async throws -> Int64? {
        guard let response = try await call("HEAD", key: key, missingIsNil: true) else { return nil }
        return response.headers.first(name: "content-length").flatMap { Int64($0) }
    }

    /// Deletes object `key`; one already gone is no error.
    public func delete(_ key: String) async throws {
        _ = try await call("DELETE", key: key)
    }

    /// One page of the keys under `prefix` (below the location's own), with their sizes, and where the next page
    /// starts if one follows.
    public func list(
        prefix: String = "", after token: String? = nil, limit: Int = 1000
    ) async throws
        -> (objects: [(key: String, size: Int64)], next: String?)
    {
        var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", String(limit))]
        if let token { query.append(("continuation-token", token)) }
        let xml = try await text(of: call("GET", key: nil, query: query, keepingBody: true))
        let keys = S3XML.values(of: "Key", in: xml).map { String($0.dropFirst(location.prefix.count)) }
        let sizes = S3XML.values(of: "Size", in: xml).map { Int64($0) ?? 0 }
        let next = S3XML.value(of: "IsTruncated", in: xml) == "true" ? S3XML.value(of: "NextContinuationToken", in: xml) : nil
        return (Array(zip(keys, sizes)).map { (key: $0.0, size: $0.1) }, next)
    }

    /// Presigned `GET` of `key` for `seconds`: a URL anyone holding it may read the object with until then.
    public func presignedURL(of key: String, for seconds: Int, now: Date = Date()) -> String {
        let path = location.path(of: key)
        let query = signer.presignedQuery(method: "GET", path: path, host: location.hostHeader, at: now, expiresIn: seconds)
        return location.url(path, query: query)
    }

    // MARK: - Multipart uploads

    /// Starts a multipart upload of `key`: its id.
    public func startMultipart(_ key: String) async throws -> String {
        let xml = try await text(of: call("POST", key: key, query: [("uploads", "")], keepingBody: true))
        guard let id = S3XML.value(of: "UploadId", in: xml), !id.isEmpty else {
            throw S3Failure.refused(store: location.description, status: 200, code: "NoUploadId", message: "no upload id in its answer")
        }
        return id
    }

    /// Stores part `number` (from 1) of upload `id`: the part's ETag, which completing the upload names.
    public func putPart(_ key: String, upload id: String, number: Int, _ bytes: ByteBuffer, sha256: String) async throws -> String {
        let response = try await call("PUT", key: key, query: [("partNumber", String(number)), ("uploadId", id)], body: bytes, payloadHash: sha256)
        return response?.headers.first(name: "etag") ?? ""
    }

    /// Makes upload `id` the object `key`, of `parts` (their numbers and ETags, in order).
    public func completeMultipart(_ key: String, upload id: String, parts: [(number: Int, etag: String)]) async throws {
        let xml =
            "<CompleteMultipartUpload>"
            + parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(S3XML.escaped($0.etag))</ETag></Part>" }.joined()
            + "</CompleteMultipartUpload>"
        let body = ByteBuffer(string: xml)
        let answer = try await text(
            of: call(
                "POST", key: key, query: [("uploadId", id)], body: body, payloadHash: SignatureV4.sha256(Data(xml.utf8)),
                keepingBody: true))
        // A store may answer 200 and then report that the completion failed, in the body.
        if let code = S3XML.value(of: "Code", in: answer) {
            throw S3Failure.refused(store: location.description, status: 200, code: code, message: S3XML.value(of: "Message", in: answer) ?? "")
        }
    }

    /// Abandons upload `id`: the store drops its parts. One already gone is no error.
    public func abortMultipart(_ key: String, upload id: String) async throws {
        do {
            _ = try await call("DELETE", key: key, query: [("uploadId", id)])
        } catch let failure as S3Failure where failure.code == "NoSuchUpload" {
            return
        }
    }

    // MARK: - The bucket

    /// Throws, saying what is wrong, unless the bucket is there and these credentials may write to it and read it.
    public func checkBucket() async throws {
        // Listed first: some stores make a bucket that a write names (a mistyped name would then hold the files), and a
        // listing's error, unlike a HEAD's, names its cause (NoSuchBucket, SignatureDoesNotMatch, AccessDenied).
        _ = try await list(limit: 1)
        let probe = ".share-check-\(UUID().uuidString)"
        let bytes = Array("share".utf8)
        try await put(probe, ByteBuffer(bytes: bytes), sha256: SignatureV4.sha256(bytes))
        guard try await size(of: probe) == Int64(bytes.count) else {
            throw S3Failure.refused(store: location.description, status: 200, code: "ProbeNotStored", message: "an object written was not there")
        }
        try await delete(probe)
    }

    // MARK: - Requests

    /// Sends one signed request for `key` (nil: the bucket), trying again after a passing failure when the method may
    /// be repeated. Returns the answer (its body read only with `keepingBody`), or nil for a 404 when `missingIsNil`.
    func call(
        _ method: String, key: String?, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: ByteBuffer? = nil, payloadHash: String? = nil, missingIsNil: Bool = false, keepingBody: Bool = false
    ) async throws -> HTTPClientResponse? {
        try await retrying(method) { deadline in
            try await send(
                method, key: key, query: query, headers: headers, body: body, payloadHash: payloadHash,
                missingIsNil: missingIsNil, keepingBody: keepingBody, deadline: deadline)
        }
    }

    /// Runs `attempt` by the call's deadline, again after a passing failure when `method` may be repeated. When time
    /// runs out amid an attempt, what the store last answered is the failure, rather than that time ran out.
    func retrying<Result>(_ method: String, _ attempt: (NIODeadline) async throws -> Result) async throws -> Result {
        let deadline = NIODeadline.now() + timeout
        var wait = TimeAmount.milliseconds(200)
        var lastAnswer: S3Failure?
        while true {
            do {
                return try await attempt(deadline)
            } catch let failure as S3Failure where failure.isPassing && method != "POST" {
                if case .refused = failure { lastAnswer = failure }
                guard NIODeadline.now() + wait < deadline else { throw lastAnswer ?? failure }
                try await Task.sleep(nanoseconds: UInt64(wait.nanoseconds))
                wait = wait * 2
            }
        }
    }

    /// The headers of a request, signed: `host` first, `authorization` last.
    func signedHeaders(
        _ method: String, path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)], payloadHash: String
    ) -> [(name: String, value: String)] {
        let now = Date()
        var signed: [(name: String, value: String)] =
            [("host", location.hostHeader), ("x-amz-content-sha256", payloadHash), ("x-amz-date", SigningTime(now).stamp)] + headers
        let authorization = signer.authorization(
            for: SignatureV4.Request(method: method, path: path, query: query, headers: signed, payloadHash: payloadHash), at: now)
        signed.append(("authorization", authorization))
        return signed
    }

    /// A store's answer other than 2xx, its XML (if any) naming the error.
    func refusal(status: HTTPResponseStatus, xml: String) -> S3Failure {
        S3Failure.refused(
            store: location.description, status: Int(status.code), code: S3XML.value(of: "Code", in: xml) ?? status.reasonPhrase,
            message: S3XML.value(of: "Message", in: xml) ?? "")
    }

    private func send(
        _ method: String, key: String?, query: [(name: String, value: String)], headers: [(name: String, value: String)], body: ByteBuffer?,
        payloadHash: String?, missingIsNil: Bool, keepingBody: Bool, deadline: NIODeadline
    ) async throws -> HTTPClientResponse? {
        let path = location.path(of: key)
        let signed = signedHeaders(method, path: path, query: query, headers: headers, payloadHash: payloadHash ?? SignatureV4.emptyPayload)
        var request = HTTPClientRequest(url: location.url(path, query: query))
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signed where name != "host" { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, deadline: deadline)
        } catch {
            throw S3Failure.unreachable(store: location.description, reason: "\(error)")
        }
        switch response.status.code {
        case 200..<300:
            if !keepingBody { try await drain(response) }
            return response
        case 404 where missingIsNil:
            return nil
        default:
            // HEAD answers have no body to name the error: its status must do.
            let xml = method == "HEAD" ? "" : (try? await String(buffer: response.body.collect(upTo: 64 * 1024))) ?? ""
            throw refusal(status: response.status, xml: xml)
        }
    }

    /// Reads an answer's body to its end, so that its connection serves the next request.
    private func drain(_ response: HTTPClientResponse) async throws {
        do {
            for try await _ in response.body {}
        } catch {
            throw S3Failure.unreachable(store: location.description, reason: "its answer broke off: \(error)")
        }
    }

    /// The body of an answer as text (S3's XML answers are small).
    private func text(of response: HTTPClientResponse?) async throws -> String {
        guard let response else { return "" }
        do {
            return String(buffer: try await response.body.collect(upTo: 16 * 1024 * 1024))
        } catch {
            throw S3Failure.unreachable(store: location.description, reason: "its answer broke off: \(error)")
        }
    }
}
