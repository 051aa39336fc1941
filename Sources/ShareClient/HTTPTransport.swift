import Foundation

/// One HTTP request, as the CLI sends it.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response; header names are lowercased.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why no response arrived.
public enum TransportError: Error, Equatable, Sendable {
    /// Nothing answered: refused, unresolvable, or no socket.
    case unreachable(reason: String)
    /// The connection or the whole exchange took longer than allowed.
    case timedOut(reason: String)
    case failed(reason: String)
}

/// Sends requests and returns responses: libcurl in the program, a scripted fake in tests.
public protocol HTTPTransport: AnyObject {
    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse
}
