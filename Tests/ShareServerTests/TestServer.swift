import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ShareHistory
import ShareKit
import ShareSQLite
import ShareServer
import ShareTestSupport
import StoreTestSupport

/// Runs `test` against the real router over `store`, or a fresh store of `backend` (a SQLite file in a temporary
/// folder, or a new database of the PostgreSQL test cluster), and returns what it returns.
@discardableResult
func withServer<Value: Sendable>(
    _ configure: (inout ShareConfig) -> Void = { _ in }, log: CapturedLog? = nil, store: SQLiteStore? = nil, backend: Backend = .sqlite,
    _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let folder = try temporaryFolder("server")
    var config = ShareConfig(database: DatabaseSettings(path: folder.appending(path: "share.db").path))
    configure(&config)
    let setup = try ServerSetup(config: config)
    var quietLogger = log.map { log in Logger(label: "share-server-tests") { _ in log } } ?? Logger(label: "share-server-tests")
    quietLogger.logLevel = log == nil ? .warning : .info
    let logger = quietLogger
    let serve = { @Sendable (store: any ShareStore) in
        // Links' throttles count tries over an hour: a test's few tries never outlast the window, however slow the machine.
        let responder = buildResponder(setup: setup, store: store, linkLimits: LinkLimits(window: .seconds(3600)))
        return try await Application(responder: responder, logger: logger).test(.router, test)
    }
    switch (store, backend) {
    case (let store?, _): return try await serve(store)
    case (nil, .sqlite): return try await serve(try SQLiteStore(path: config.database.path))
    case (nil, _): return try await backend.withStore(serve)
    }
}

extension TestClientProtocol {
    /// Sends a request with an optional raw body, declared as JSON unless `headers` declare it otherwise.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:]
    ) async throws
        -> TestResponse
    {
        var headers = headers
        if body != nil && headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Creates a record and returns it as the server answered.
    @discardableResult
    func create(_ fields: String, at path: String = "/share") async throws -> ShareRecord {
        let response = try await send(.post, path, "{\(fields)}")
        guard response.status == .created else { throw UnexpectedResponse(text: response.text) }
        return try response.decode(ShareRecord.self)
    }
}

struct UnexpectedResponse: Error {
    let text: String
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try WireJSON.decoder().decode(T.self, from: Data(text.utf8))
    }

    /// The problem detail of an error response; empty if the body is not one.
    var problemDetail: String {
        guard headers[.contentType] == ProblemDetails.mediaType, let problem = try? decode(ProblemDetails.self),
            problem.status == Int(status.code)
        else { return "" }
        return problem.detail
    }
}

/// Log lines kept in memory, each as its message followed by its sorted `key=value` metadata.
final class CapturedLog: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    var lines: [String] { lock.withLock { stored } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let line = ([event.message.description] + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        lock.withLock { stored.append(line) }
    }
}

/// Two people with histories of their own (`histories = "per-user"`), signed in by their tokens.
enum TwoUsers {
    static let bob: HTTPFields = [.authorization: "Bearer bob-secret"]
    static let carol: HTTPFields = [.authorization: "Bearer carol-secret"]

    static func configure(_ config: inout ShareConfig) {
        config.auth.users = ["bob": ["bob-secret"], "carol": ["carol-secret"]]
        config.auth.histories = .perUser
    }
}
