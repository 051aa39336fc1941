import Hummingbird
import NIOCore
import ShareHistory

extension Thumbnail {
    /// The thumbnail as the answer to `request`: a 304 when the client holds this one already (its tag), else the
    /// WebP image, sandboxed, cached as `cacheControl` says.
    func response(to request: Request, cacheControl: String) -> Response {
        let etag = "\"\(tag)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: cacheControl, .xContentTypeOptions: "nosniff"]
        if EntityTags.noneMatchHolds(request.headers, for: etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/webp"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image)))
    }
}
