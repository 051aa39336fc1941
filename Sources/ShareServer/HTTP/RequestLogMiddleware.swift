import Hummingbird

/// Logs one line per routed request, whatever its status: the 401s of token guessing included. It runs outside
/// `ProblemMiddleware`, so every error arrives here as an `HTTPResponseError` with its status.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let status: HTTPResponse.Status
        defer {
            log.record(
                context.logger, method: request.method.rawValue, path: request.uri.path, status: Int(status.code),
                headers: request.headers, peer: context.remoteAddress, since: started)
        }
        do {
            let response = try await next(request, context)
            status = response.status
            return response
        } catch {
            status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            throw error
        }
    }
}
