import Foundation
import Testing

@testable import ShareObjectStore

/// Requests signed as AWS's Signature Version 4 test suite signs them, and as S3's documentation does: a store
/// would refuse every request of a signer that differs from them in one byte.
struct SignatureV4Tests {
    /// The test suite's key, region, service and time.
    static let suite = SignatureV4(
        credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    static let suiteTime = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let method: String
        let query: [(name: String, value: String)]
        let headers: [(name: String, value: String)]
        let body: String
        /// The suite's `.authz` file.
        let signature: String

        var testDescription: String { name }
    }

    static let host = ("Host", "example.amazonaws.com")
    static let date = ("X-Amz-Date", "20150830T123600Z")

    static let vectors = [
        Vector(
            name: "get-vanilla-query-order-key-case", method: "GET", query: [("Param2", "value2"), ("Param1", "value1")],
            headers: [host, date], body: "", signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Vector(
            name: "get-vanilla-query-unreserved", method: "GET",
            query: [
                (
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                )
            ], headers: [host, date], body: "", signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        Vector(
            name: "get-vanilla-utf8-query", method: "GET", query: [("\u{1234}", "bar")], headers: [host, date], body: "",
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Vector(
            name: "get-header-value-trim", method: "GET", query: [],
            headers: [host, ("My-Header1", " value1"), ("My-Header2", " \"a   b   c\""), date], body: "",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Vector(
            name: "get-header-key-duplicate", method: "GET", query: [],
            headers: [host, ("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1"), date], body: "",
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Vector(
            name: "post-header-value-case", method: "POST", query: [], headers: [host, ("My-Header1", "VALUE1"), date], body: "",
            signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
        Vector(
            name: "post-x-www-form-urlencoded", method: "POST", query: [],
            headers: [("Content-Type", "application/x-www-form-urlencoded"), host, date], body: "Param1=value1",
            signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    ]

    @Test(arguments: vectors)
    func theTestSuitesRequestsAreSignedAsItsAnswersSay(_ vector: Vector) {
        let request = SignatureV4.Request(
            method: vector.method, path: "/", query: vector.query, headers: vector.headers,
            payloadHash: SignatureV4.sha256(Data(vector.body.utf8)))
        let authorization = Self.suite.authorization(for: request, at: Self.suiteTime)
        #expect(authorization.hasSuffix("Signature=\(vector.signature)"), "\(authorization)")
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders="))
    }

    /// S3's documentation: `GET /test.txt` of `examplebucket` with a range, signed in its header.
    @Test func s3sDocumentedRangedGetIsSignedAsItSays() {
        let signer = SignatureV4(
            credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1")
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        let request = SignatureV4.Request(
            method: "GET", path: "/test.txt",
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"), ("x-amz-content-sha256", empty),
                ("x-amz-date", "20130524T000000Z"),
            ], payloadHash: empty)
        let authorization = signer.authorization(for: request, at: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// S3's documentation: a presigned `GET /test.txt` of `examplebucket`, valid for a day.
    @Test func s3sDocumentedPresignedURLIsSignedAsItSays() {
        let signer = SignatureV4(
            credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1")
        let query = signer.presignedQuery(
            method: "GET", path: "/test.txt", host: "examplebucket.s3.amazonaws.com", at: Date(timeIntervalSince1970: 1_369_353_600),
            expiresIn: 86_400)
        #expect(query.last?.name == "X-Amz-Signature")
        #expect(query.last?.value == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func aPathKeepsItsSlashesAndEncodesTheRestOnce() {
        #expect(AWSEncoding.encode("shares/ab/report 2021 (1)+ü.pdf", keepingSlashes: true) == "shares/ab/report%202021%20%281%29%2B%C3%BC.pdf")
        #expect(AWSEncoding.encode("a/b") == "a%2Fb")
    }

    @Test func aSecretNeverShowsInTheCredentialsDescription() {
        let credentials = S3Credentials(accessKeyID: "AKID", secretAccessKey: "very-secret")
        #expect(!"\(credentials)".contains("very-secret"))
    }
}
