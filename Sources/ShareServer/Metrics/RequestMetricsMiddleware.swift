import Hummingbird

/// Hummingbird's `MetricsMiddleware`, made whole for HEAD requests. It records a request, and ends it in flight,
/// once the response body has been written; but the HEAD route Hummingbird generates from a GET answers with an
/// empty body of its own, so that moment never came and every HEAD stayed in flight for ever. A HEAD's body is
/// never sent: it is written here into nothing, which records the request at once.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let metrics = MetricsMiddleware<Context>()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await metrics.handle(request, context: context, next: next)
        guard request.method == .head else { return response }
        let length = response.body.contentLength
        try await response.body.write(DiscardingBodyWriter())
        // The length a GET would send, or none for a streamed body, as HEAD should say.
        response.body = ResponseBody(contentLength: length) { writer in try await writer.finish(nil) }
        return response
    }
}

/// A body writer that keeps nothing.
private struct DiscardingBodyWriter: ResponseBodyWriter {
    func write(_ buffer: ByteBuffer) async throws {}
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
