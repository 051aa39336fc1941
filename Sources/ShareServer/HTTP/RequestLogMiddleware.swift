import Hummingbird

/// Logs one line per routed request. It runs outside `ProblemMiddleware`, so errors arrive here as the problem
/// responses they become, and every status leaves its line: 401s from token guessing included.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ShareRequestContext
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        log.record(
            context.logger, method: request.method.rawValue, path: request.uri.path, status: Int(response.status.code),
            headers: request.headers, peer: context.remoteAddress, since: started)
        return response
    }
}
