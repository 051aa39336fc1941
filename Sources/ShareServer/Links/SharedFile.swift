import Crypto
import Hummingbird
import ShareHistory
import ShareKit

/// The answer to `GET|HEAD /s/{token}/file` for a share whose bytes the service holds: the bytes streamed as the
/// store reads them, any one range of them (206; 416 past the end), a strong `ETag`, and headers that keep a shared
/// HTML or SVG file from ever running on the service's origin: an attachment, `nosniff`, and a sandboxing CSP.
enum SharedFile {
    static func headers(named name: String, tag: String) -> HTTPFields {
        [
            .contentType: "application/octet-stream", .contentDisposition: attachment(name), .eTag: tag,
            .acceptRanges: "bytes", .cacheControl: "private, no-cache", .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "sandbox; default-src 'none'", .init("Referrer-Policy")!: "no-referrer",
        ]
    }

    /// The file's strong `ETag`: the link's own, as a link's bytes never change. Never the bytes' hash, against which
    /// whoever holds all of a file but a few bytes could check guesses of the rest.
    static func tag(token: String) -> String {
        var hash = SHA256()
        hash.update(data: Array("shared file \(token)".utf8))
        return "\"\(hash.hex().prefix(32))\""
    }

    /// The 304 a request whose `If-None-Match` holds this file's tag is due, when it asks for the whole file.
    static func notModified(_ request: Request, named name: String, _ range: ByteRange, tag: String) -> Response? {
        guard range == .whole, EntityTags.noneMatchHolds(request.headers, for: tag) else { return nil }
        return Response(status: .notModified, headers: headers(named: name, tag: tag))
    }

    /// The range a request asks for: the whole file unless `If-Range` names this file's tag (or is absent).
    static func range(_ request: Request, size: Int64, tag: String) -> ByteRange {
        if let condition = request.headers[.ifRange], condition != tag { return .whole }
        return ByteRange(header: request.headers[.range], size: size)
    }

    /// How often a sending asks whether its link still opens.
    static let openCheckInterval = Duration.seconds(2)

    /// A link closed (revoked, expired, gone) while its file was being sent: the sending stops.
    struct LinkClosed: Error {}

    /// What a response sends: hands `write` each buffer once it took the one before, and tells `sent` how many of the
    /// file's bytes have gone.
    typealias Sending = @Sendable (_ write: (ByteBuffer) async throws -> Void, _ sent: (Int64) -> Void) async throws -> Void

    /// The response sending `range` of `bytes`, whose reading begins before the answer does unless it `sendsNothing`
    /// (a HEAD); bytes in a file of this machine go with `sendfile` through `handoff`, when the connection has one.
    /// `ended` hears how many bytes were handed to the connection when the sending stops, all of them or not
    /// (none when the store failed to begin). `stillOpen`, asked every `openCheckInterval` while the bytes go, stops
    /// the sending when it says the link closed; `alongside` runs beside the sending (even while a slow reader holds
    /// it up) and is cancelled when it ends.
    static func response(
        named name: String, _ bytes: any StoredBytes, _ range: ByteRange, tag: String, sendsNothing: Bool = false,
        handoff: FileRegionHandoff? = nil, stillOpen: (@Sendable () async throws -> Bool)? = nil, alongside: (@Sendable () async -> Void)? = nil,
        ended: @escaping @Sendable (_ sent: Int64) async -> Void = { _ in }
    ) async throws -> Response {
        var headers = headers(named: name, tag: tag)
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
        let sending: Sending
        do {
            sending = try await Self.sending(sent, of: bytes, sendsNothing: sendsNothing, handoff: handoff)
        } catch {
            await ended(0)
            throw error
        }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: Int(sent.count)) { writer in
                let beside = alongside.map { work in Task { await work() } }
                defer { beside?.cancel() }
                var written: Int64 = 0
                var checked = ContinuousClock.now
                do {
                    try await sending(
                        { chunk in
                            if let stillOpen, ContinuousClock.now - checked >= openCheckInterval {
                                guard try await stillOpen() else { throw LinkClosed() }
                                checked = .now
                            }
                            try await writer.write(chunk)
                        }, { written += $0 })
                    try await writer.finish(nil)
                } catch {
                    await ended(written)
                    throw error
                }
                await ended(written)
            })
    }

    private static func sending(
        _ range: Range<Int64>, of bytes: any StoredBytes, sendsNothing: Bool, handoff: FileRegionHandoff?
    ) async throws -> Sending {
        if sendsNothing { return { _, _ in } }
        if let handoff, let file = bytes.file { return try handoff.sending(fileAt: file, range) }
        let opened = try await bytes.open(range)
        return { write, sent in
            try await opened.send { chunk in
                try await write(chunk)
                sent(Int64(chunk.readableBytes))
            }
        }
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
