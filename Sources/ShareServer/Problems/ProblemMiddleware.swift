import Hummingbird
import NIOCore
import NIOHTTP1
import ShareHistory
import ShareKit

/// Gives the errors of the frameworks below the routes a problem body too: Hummingbird's own (no route, 404),
/// NIO's (a body over the limit, broken framing) and anything unforeseen (500, logged). The project's own errors
/// are `HTTPResponseError`s already (`ShareError`, `Problem`) and pass through untouched.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ShareError {
            throw error
        } catch let error as Problem {
            throw error
        } catch let error as FileRequestError {
            throw error
        } catch is NIOTooManyBytesError {
            throw Problem(.contentTooLarge, "the request body is larger than the server accepts")
        } catch let error as HTTPParserError {
            // The bytes that follow cannot be trusted to start a request: the connection ends after the answer.
            throw Problem(.badRequest, error.problemDetail, headers: [.connection: "close"])
        } catch is CancellationError {
            // The daemon is stopping and `shutdown_seconds` have passed, or the client has gone (and reads nothing
            // more): the request is cut off, as it says.
            throw Problem(.serviceUnavailable, "the server is stopping; the request was cut off", headers: [.connection: "close"])
        } catch let error as HTTPError where error.status == .unauthorized {
            // Sign-in's own middleware (an admin route asked of nobody): the 401 every other route gives.
            throw Problem.unauthorized
        } catch let error as any HTTPResponseError {
            throw Problem(error.status, error.status == .notFound ? "no such endpoint" : error.status.reasonPhrase)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            throw Problem(.internalServerError, "the server could not complete the request; see its log")
        }
    }
}
