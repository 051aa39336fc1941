import Foundation

/// One HTTP request, as the CLI sends it.
public struct HTTPRequest {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: Data?
    /// A body read from a file while it is sent, instead of `body`: uploads of any size in constant memory.
    public var upload: UploadSource?
    /// The most bytes a second the body, or the response, may move (nil: as fast as they can).
    public var rateLimit: Int64?

    public init(method: String, url: String, headers: [String: String] = [:], body: Data? = nil, upload: UploadSource? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.upload = upload
    }
}

/// A request body streamed from a file descriptor (or several files, one after the other), telling how much has gone
/// as it goes.
public final class UploadSource {
    /// Fills a buffer with the next bytes: how many, 0 at the end, nil on a read error.
    private let reading: (UnsafeMutableRawBufferPointer) -> Int?
    /// Known for regular files; nil for pipes, which are sent chunked.
    public let size: Int64?
    private let progress: (Int64) -> Void
    /// Told, about once a second, how long the server has been working on the whole body without answering yet.
    let waiting: (Duration) -> Void
    public private(set) var sent: Int64 = 0
    /// The whole file has been read: what is left is the server's work.
    public private(set) var finished = false

    public convenience init(
        descriptor: Int32, size: Int64?, progress: @escaping (_ sent: Int64) -> Void = { _ in },
        waiting: @escaping (_ since: Duration) -> Void = { _ in }
    ) {
        self.init(size: size, progress: progress, waiting: waiting) { buffer in
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            return count >= 0 ? count : nil
        }
    }

    /// A body of `size` bytes that `reading` gives.
    public init(
        size: Int64?, progress: @escaping (_ sent: Int64) -> Void = { _ in }, waiting: @escaping (_ since: Duration) -> Void = { _ in },
        reading: @escaping (UnsafeMutableRawBufferPointer) -> Int?
    ) {
        self.reading = reading
        self.size = size
        self.progress = progress
        self.waiting = waiting
    }

    /// Fills `buffer` from the file; 0 at its end, nil on a read error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let count = reading(buffer) else { return nil }
        sent += Int64(count)
        if count == 0 || sent == size { finished = true }
        progress(sent)
        return count
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
    /// Nothing answered: refused, unresolvable, no socket, or no connection within the time allowed.
    case unreachable(reason: String)
    /// The server took the connection but did not answer (or stalled) within the time allowed.
    case noAnswer(reason: String)
    /// The response was larger than the client reads into memory.
    case tooLarge(limit: Int)
    case failed(reason: String)
}

/// Sends requests and returns responses: libcurl in the program, a scripted fake in tests.
public protocol HTTPTransport: AnyObject {
    /// Sends `request`. With a `sink`, a successful (2xx) response's body goes there as it arrives, in pieces,
    /// instead of into the returned response; an error's body is still returned whole.
    func send(_ request: HTTPRequest, sink: (([UInt8]) -> Void)?) throws(TransportError) -> HTTPResponse
}

extension HTTPTransport {
    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        try send(request, sink: nil)
    }
}
