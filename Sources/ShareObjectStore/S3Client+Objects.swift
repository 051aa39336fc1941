import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension S3Client {
    /// The size of the socket's reads of an object: large pieces cost a download few system calls and thread hops,
    /// and each is mapped for itself (`share_map_large_blocks`), so memory given back is given back to the system.
    static let readBytes = 1_048_576

    /// The object `key`, or the bytes `range` names of it; nil when there is none. Its bytes come over a connection
    /// of their own, read in large pieces as they are taken: the pooled client's reads of 64 KiB, one at a time,
    /// were most of what a download cost.
    public func get(_ key: String, range: ClosedRange<Int64>? = nil) async throws -> Object? {
        let path = location.path(of: key)
        let ranged: [(name: String, value: String)] = range.map { [("range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        return try await retrying("GET") { deadline in
            var headers = HTTPHeaders()
            for (name, value) in signedHeaders("GET", path: path, query: [], headers: ranged, payloadHash: SignatureV4.emptyPayload) {
                headers.add(name: name, value: value)
            }
            switch try await answer(to: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers), by: deadline) {
            case .body(let head, let body):
                let length = head.headers.first(name: "content-length").flatMap { Int64($0) } ?? 0
                let size = head.headers.first(name: "content-range").flatMap { $0.split(separator: "/").last.flatMap { Int64($0) } } ?? length
                return Object(length: length, size: size, body: body)
            case .refused(let head, _) where head.status == .notFound:
                return nil
            case .refused(let head, let xml):
                throw refusal(status: head.status, xml: xml)
            }
        }
    }

    /// Connects, sends `request` and waits for the answer's head, by `deadline`; a cancelled task closes the connection.
    private func answer(to request: HTTPRequestHead, by deadline: NIODeadline) async throws -> ObjectAnswerHandler.Answer {
        let store = location.description
        let host = location.host
        let patience = timeout
        let tls: NIOSSLContext?
        do {
            tls = try self.tls?.get()
        } catch {
            throw S3Failure.unreachable(store: store, reason: "TLS could not be set up: \(error)")
        }
        let bootstrap = ClientBootstrap(group: http.eventLoopGroup)
            .connectTimeout(max(deadline - .now(), .milliseconds(1)))
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: Self.readBytes))
            .channelOption(.maxMessagesPerRead, value: 1)
        let (channel, answer): (any Channel, EventLoopFuture<ObjectAnswerHandler.Answer>)
        do {
            (channel, answer) = try await bootstrap.connect(host: host, port: location.port ?? (tls == nil ? 80 : 443)) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let promise = channel.eventLoop.makePromise(of: ObjectAnswerHandler.Answer.self)
                    if let tls {
                        // An address is checked against the certificate's, but never named in SNI.
                        let name = (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: name))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        ObjectAnswerHandler(request: request, store: store, patience: patience, answer: promise))
                    return (channel, promise.futureResult)
                }
            }
        } catch {
            throw S3Failure.unreachable(store: store, reason: "\(error)")
        }
        let overdue = channel.eventLoop.scheduleTask(deadline: deadline) {
            channel.pipeline.fireErrorCaught(S3Failure.unreachable(store: store, reason: "no answer in time"))
        }
        defer { overdue.cancel() }
        return try await withTaskCancellationHandler {
            try await answer.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
