import Hummingbird
import ShareHistory
import ShareKit

/// The answer to `GET|HEAD /s/{token}/file` for a share whose bytes the service holds: the bytes streamed as the
/// store reads them, any one range of them (206; 416 past the end), a strong `ETag` (their SHA-256), and headers
/// that keep a shared HTML or SVG file from ever running on the service's origin: an attachment, `nosniff`, and a
/// sandboxing CSP.
enum SharedFile {
    static func headers(_ record: ShareRecord, _ bytes: any StoredBytes) -> HTTPFields {
        [
            .contentType: "application/octet-stream", .contentDisposition: attachment(record.name), .eTag: etag(bytes),
            .acceptRanges: "bytes", .cacheControl: "private, no-cache", .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "sandbox; default-src 'none'", .init("Referrer-Policy")!: "no-referrer",
        ]
    }

    static func etag(_ bytes: any StoredBytes) -> String { "\"\(bytes.hash)\"" }

    /// The range a request asks for: the whole file unless `If-Range` names these bytes (or is absent).
    static func range(_ request: Request, _ bytes: any StoredBytes) -> ByteRange {
        if let condition = request.headers[.ifRange], condition != etag(bytes) { return .whole }
        return ByteRange(header: request.headers[.range], size: bytes.size)
    }

    /// The response sending `range` of `bytes` (its body never runs for HEAD); `brokenOff` hears how many bytes went
    /// when the sending stops before the end.
    static func response(
        _ record: ShareRecord, _ bytes: any StoredBytes, _ range: ByteRange, brokenOff: @escaping @Sendable (_ sent: Int64) async -> Void = { _ in }
    ) -> Response {
        var headers = headers(record, bytes)
        let sent: Range<Int64>
        let status: HTTPResponse.Status
        switch range {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(bytes.size)"
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .whole:
            (sent, status) = (0..<bytes.size, .ok)
        case .part(let part):
            (sent, status) = (part, .partialContent)
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(bytes.size)"
        }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: Int(sent.count)) { writer in
                var written: Int64 = 0
                do {
                    try await bytes.send(sent) { chunk in
                        try await writer.write(chunk)
                        written += Int64(chunk.readableBytes)
                    }
                    try await writer.finish(nil)
                } catch {
                    await brokenOff(written)
                    throw error
                }
            })
    }

    /// `attachment` with the name as plain ASCII (others replaced) and in full as UTF-8 (RFC 6266, RFC 8187).
    static func attachment(_ name: String) -> String {
        let plain = String(
            name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7F ? Character($0) : "_" })
        var encoded = ""
        for byte in name.utf8 {
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-._~".utf8.contains(byte)
            encoded += unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}
