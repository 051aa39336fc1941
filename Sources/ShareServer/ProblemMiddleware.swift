import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ShareKit
import ShareStore

/// Answers every error with an RFC 9457 problem (`application/problem+json`): the one place errors become HTTP.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (problem, headers) = Problems.problem(for: error)
            if problem.status >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            var response = try JSONBody.response(problem, status: .init(code: problem.status), headers: headers)
            response.headers[.contentType] = ProblemDetails.mediaType
            return response
        }
    }
}

/// How each error reads as a problem: the one place errors become HTTP statuses and details.
enum Problems {
    static func problem(for error: any Error) -> (ProblemDetails, HTTPFields) {
        switch error {
        case let error as ShareError:
            return (problem(for: error), [:])
        case is AuthenticationRequired:
            return (
                ProblemDetails(status: 401, title: "Unauthorized", detail: "a valid 'Authorization: Bearer <token>' header is required"),
                [.wwwAuthenticate: #"Bearer realm="share""#]
            )
        case let error as MethodNotAllowed:
            let allowed = error.allowed.map(\.rawValue).joined(separator: ", ")
            return (
                ProblemDetails(status: 405, title: "Method Not Allowed", detail: "this path accepts \(allowed)"),
                [.allow: allowed]
            )
        case let error as HTTPParserError:
            return (ProblemDetails(status: 400, title: "Bad Request", detail: error.problemDetail), [.connection: "close"])
        case is NIOTooManyBytesError:
            return (ProblemDetails(status: 413, title: "Content Too Large", detail: "the request body is larger than the server accepts"), [:])
        case let error as any HTTPResponseError:
            let status = error.status
            let detail = (error as? HTTPError)?.body ?? (status == .notFound ? "no such endpoint" : status.reasonPhrase)
            return (ProblemDetails(status: status.code, title: status.reasonPhrase, detail: detail), [:])
        default:
            return (ProblemDetails(status: 500, title: "Internal Server Error", detail: "the server could not complete the request; see its log"), [:])
        }
    }

    /// A problem's JSON, for answers written outside a route (`ConnectionGuard`).
    static func encoded(_ problem: ProblemDetails) -> ByteBuffer {
        ByteBuffer(bytes: (try? WireJSON.encoder().encode(problem)) ?? Data())
    }

    /// The detail alone, for reports that list problems (imports).
    static func detail(for error: any Error) -> String {
        problem(for: error).0.detail
    }

    static func problem(for error: ShareError) -> ProblemDetails {
        switch error {
        case .invalidField(let field, let reason):
            return ProblemDetails(status: 400, title: "Bad Request", detail: "field '\(field)' \(reason)")
        case .invalidParameter(let parameter, let reason):
            return ProblemDetails(status: 400, title: "Bad Request", detail: "parameter '\(parameter)' \(reason)")
        case .malformedBody(let reason):
            return ProblemDetails(status: 400, title: "Bad Request", detail: reason)
        case .notFound(let id):
            return ProblemDetails(status: 404, title: "Not Found", detail: "no share with id '\(id)'")
        case .idTaken(let id):
            return ProblemDetails(status: 409, title: "Conflict", detail: "a share with id '\(id)' exists already")
        }
    }
}
