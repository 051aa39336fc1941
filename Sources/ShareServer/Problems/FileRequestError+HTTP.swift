import Hummingbird
import ShareHistory
import ShareKit

/// A file request's refusals as HTTP: each one's status, and its detail as a problem.
extension FileRequestError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .closed: .gone
        case .full: .conflict
        case .tooLarge: .contentTooLarge
        case .busy: .tooManyRequests
        }
    }

    var detail: String {
        switch self {
        case .notFound(let id): "no file request with id '\(id)'"
        case .closed(.expired): "this request has expired: it takes no more files"
        case .closed: "this request was closed by its owner: it takes no more files"
        case .full(let maxFiles): "this request has all the \(maxFiles) files it asked for (counting those on their way)"
        case .tooLarge(let maxBytes): "this request takes files of at most \(ByteSize.text(maxBytes))"
        case .busy(let limit): "\(limit) files are on their way through this link already: send this one when one has arrived"
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let headers: HTTPFields = if case .busy = self { [.retryAfter: "30"] } else { [:] }
        return try Problem(status, detail, headers: headers).response(from: request, context: context)
    }
}
