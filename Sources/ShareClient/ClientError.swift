/// A failed call to `shared`, worded for the person at the terminal; the CLI gives each kind its own exit status.
public enum ClientError: Error, Equatable, Sendable {
    case unreachable(server: String, reason: String)
    /// The server took the connection and then did not answer in time.
    case noAnswer(server: String, reason: String)
    case unauthorized(status: Int)
    /// 403 with the server's reason: a quota reached, another user's history without being an admin.
    case forbidden(detail: String)
    case notFound(id: String)
    /// 400, 413: the server explained what it refused.
    case rejected(detail: String)
    /// 409: the request met another change of the same thing (an upload's bytes sent from another offset).
    case conflict(detail: String)
    case serverFailed(status: Int, detail: String)
    /// The connection broke off during the exchange.
    case interrupted(server: String, reason: String)
    /// A redirect, or a response that is not what the API promises.
    case unexpected(String)

    /// Whether trying again soon may succeed: nothing answered, no answer in time, the connection broke off, a proxy
    /// lost the server behind it (502, 504), or the server is busy (503).
    public var isTransient: Bool {
        switch self {
        case .unreachable, .noAnswer, .interrupted: return true
        case .serverFailed(let status, _): return [502, 503, 504].contains(status)
        default: return false
        }
    }

    public var message: String {
        switch self {
        case .unreachable(let server, let reason):
            return "cannot reach the share server at \(server) (\(reason)); is shared running? (set --server or SHARE_SERVER)"
        case .noAnswer(let server, let reason):
            return "the share server at \(server) took the connection but did not answer in time (\(reason))"
        case .unauthorized(let status):
            return "the server refused the token (HTTP \(status)); check --token or SHARE_TOKEN"
        case .notFound(let id):
            return "no share with id '\(id)'"
        case .rejected(let detail), .forbidden(let detail), .conflict(let detail):
            return detail
        case .serverFailed(let status, let detail):
            return "the server failed (HTTP \(status)): \(detail)"
        case .interrupted(let server, let reason):
            return "the connection to the share server at \(server) broke off (\(reason))"
        case .unexpected(let reason):
            return reason
        }
    }
}
