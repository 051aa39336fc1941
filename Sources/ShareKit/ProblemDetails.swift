/// An RFC 9457 problem, the body of every error response (`application/problem+json`).
public struct ProblemDetails: Codable, Hashable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String

    public static let mediaType = "application/problem+json"

    public init(status: Int, title: String, detail: String, type: String = "about:blank") {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
    }
}
