import CompressNIO
import HTTPTypes
import Hummingbird

/// Text responses (JSON, the page's files, the API description) compressed with gzip when the client accepts it
/// and they are large enough to gain: a listing page of 100 records goes from ~12 kB to ~2 kB. Streamed bodies (an
/// export) and `HEAD` answers go as they are. Every text response says `Vary: Accept-Encoding`, compressed or not;
/// the gzip form's ETag is its own (`ConditionalGETMiddleware` gives it to every client that takes gzip).
struct ResponseCompression<Context: RequestContext>: RouterMiddleware {
    /// Below this, gzip's header and the work cost more than they save.
    static var minimumBytes: Int { 1024 }
    /// zlib's fastest level and an 8 kB window: a page of 100 records shrinks almost as much as at the default
    /// (level 6, 32 kB), for much less of the daemon's time (docs/benchmarks.md, "Compressed responses").
    /// compress-nio names windows by the memory they take: `.window32k` is zlib's `windowBits` 13, an 8 kB window.
    static var gzip: CompressionAlgorithm { .gzip(configuration: ZlibConfiguration(windowSize: .window32k, compressionLevel: .fastestCompression)) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard Self.isText(response.headers[.contentType]) else { return response }
        // Every form of a text response says so, the one sent as it is too: a cache must not give it to another client.
        if !response.headers[values: .vary].contains(where: { $0.lowercased().contains("accept-encoding") }) {
            response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        guard request.method != .head, Self.acceptsGzip(request.headers[.acceptEncoding]), response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength, length >= Self.minimumBytes
        else { return response }
        let collected = CollectedBody()
        let body = response.body
        try await body.write(collected)
        var plain = collected.buffer
        let compressed = try plain.compress(with: Self.gzip)
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Whether `Accept-Encoding` names gzip (or `*`) without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    private static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/problem+json")
            || type.hasPrefix("application/yaml") || type.hasPrefix("application/x-ndjson")
    }
}

/// A response body's bytes, gathered in memory (bodies of known, small length only).
private final class CollectedBody: ResponseBodyWriter, @unchecked Sendable {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        buffer.writeImmutableBuffer(part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
