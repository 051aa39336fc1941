import HTTPTypes
import Logging
import NIOCore

/// What a `ConnectionGuard` holds requests to: the rules every connection's guard shares, and what makes a request
/// one it answers itself.
extension ConnectionGuard {
    /// What every connection's guard shares.
    struct Rules: Sendable {
        let registry: ConnectionRegistry
        /// Where the request in progress hears that its connection has ended.
        let ends: ConnectionEnds
        let accessLog: AccessLog
        let logger: Logger
        /// What the body of a request to a (normalised) path must respect.
        let bodyRule: @Sendable (String) -> BodyRule
        /// How fast a client must take a response.
        let responsePace: ResponsePace
    }

    /// How fast a client must take the response it asked for, while the server has bytes of it waiting to go: some
    /// within `stall`, and at least `bytesPerSecond` over each `window` the server spent waiting for the client.
    struct ResponsePace: Sendable {
        let stall: TimeAmount
        let bytesPerSecond: Int
        let window: TimeAmount

        init(stall: TimeAmount, bytesPerSecond: Int, window: TimeAmount = .seconds(10)) {
            self.stall = stall
            self.bytesPerSecond = bytesPerSecond
            self.window = min(window, stall)
        }
    }

    /// The size and pace a request body must keep.
    struct BodyRule: Sendable {
        /// The largest body a request may declare; nil for no limit (imports stream).
        let maxBytes: Int?
        let pace: BodyPace
    }

    /// How fast a body must arrive.
    enum BodyPace: Sendable {
        /// Whole, this long after the head at most.
        case within(TimeAmount)
        /// At least this many bytes a second over each `window`, counted only while the server was ready to read
        /// (a server slow to store what it reads never blames the client).
        case atLeast(bytesPerSecond: Int, window: TimeAmount)
    }

    /// Why `head` cannot be served at all, if it cannot.
    static func refusal(of head: HTTPRequest, maxBytes: Int?) -> Problem? {
        if let codings = head.headerFields[.transferEncoding],
            let unknown = codings.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
                .first(where: { $0 != "chunked" })
        {
            return Problem(.notImplemented, "the transfer coding '\(unknown)' is not supported; send the body as it is, or chunked")
        }
        if let expectation = head.headerFields[.expect], expectation.lowercased() != "100-continue" {
            return Problem(.expectationFailed, "only 'Expect: 100-continue' is supported")
        }
        if let declared = head.headerFields[.contentLength].flatMap(Int.init), let limit = maxBytes, declared > limit {
            return Problem(.contentTooLarge, "the request body (\(declared) bytes) is larger than the \(limit) bytes the server accepts")
        }
        return nil
    }
}
