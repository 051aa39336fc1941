import Hummingbird

/// Logs one line per routed request, whatever its status: the 401s of token guessing included. It runs outside
/// `ProblemMiddleware`, so every error arrives here as an `HTTPResponseError` with its status.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var entry = AccessLog.Entry(
            method: request.method.rawValue, path: request.uri.path, status: 500, headers: request.headers,
            peer: context.remoteAddress, started: .now)
        defer {
            entry.route = context.endpointPath
            log.record(entry, context.logger)
        }
        do {
            let response = try await next(request, context)
            (entry.status, entry.bytes) = (Int(response.status.code), response.body.contentLength)
            return response
        } catch {
            entry.status = Int(((error as? any HTTPResponseError)?.status ?? .internalServerError).code)
            throw error
        }
    }
}
