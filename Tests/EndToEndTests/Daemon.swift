import Foundation
import FoundationNetworking
import ShareChildProcess
import ShareTestSupport

#if canImport(FoundationNetworking)
#endif

/// The built `shared` binary, found beside this test bundle (or at `$SHARED_BINARY`).
let sharedBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["SHARED_BINARY"] { return URL(filePath: path) }
    return URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "shared")
}()

struct DaemonError: Error, CustomStringConvertible {
    let description: String
}

/// What a `shared` run that ended by itself printed, and how it ended.
struct Finished {
    let status: Int32
    let output: String
}

/// A running `shared` process listening on a free loopback port.
final class Daemon: @unchecked Sendable {
    let process: ChildProcess
    let folder: URL
    let log: URL
    /// `http://127.0.0.1:PORT`, or the socket path for `unix:` listeners.
    let address: String

    /// Starts `shared` with `arguments` in `folder` and waits until it announces its address.
    init(folder: URL, arguments: [String], environment: [String: String] = [:]) throws {
        self.folder = folder
        log = folder.appending(path: "shared-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process = try Self.launch(arguments, in: folder, environment: environment, output: log)
        var text = ""
        let running = process
        let output = log
        do {
            try waitUntilBlocking("shared serving", within: .seconds(30)) {
                text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                guard running.isRunning || text.contains("serving on ") else { throw DaemonError(description: "shared stopped") }
                return text.contains("serving on ")
            }
        } catch {
            process.terminate()
            throw DaemonError(description: "shared did not start:\n\(text)")
        }
        let range = text.range(of: "serving on ")!
        let rest = text[range.upperBound...].prefix { !$0.isNewline && $0 != "\"" }
        address = rest.hasPrefix("unix:") ? String(rest.dropFirst(5)) : "http://\(rest)"
    }

    /// Starts on a fresh port with the database `share.db` in `folder`.
    convenience init(folder: URL, extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(
            folder: folder, arguments: ["--listen", "127.0.0.1:0", "--db", folder.appending(path: "share.db").path] + extraArguments,
            environment: environment)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits at most `limit` for the process to end; its exit status, or nil when it was still
    /// running then (it is killed).
    func stop(within limit: Duration) async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        do {
            try await waitUntil("shared ends after SIGTERM", within: limit) { !process.isRunning }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Runs `shared` to completion (for runs expected to refuse to start, or `--check-config`).
    static func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:], seconds: Double = 30
    ) throws -> Finished {
        let output = folder.appending(path: "run-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = try launch(arguments, in: folder, environment: environment, output: output)
        try? waitUntilBlocking("shared to finish", within: .seconds(seconds)) { !process.isRunning }
        if process.isRunning {
            process.terminate()
            throw DaemonError(description: "shared \(arguments) kept running")
        }
        return Finished(status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8))
    }

    /// The environment is minimal and points HOME and XDG folders into `folder`, so no user file leaks in.
    private static func launch(_ arguments: [String], in folder: URL, environment: [String: String], output: URL) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = sharedBinary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }
}

/// A minimal HTTP exchange with the daemon.
struct HTTPResult {
    let status: Int
    let headers: [String: String]
    let body: String
}

func http(
    _ method: String, _ url: String, body: String? = nil, headers: [String: String] = [:], timeout: TimeInterval = 60,
    followingRedirects: Bool = true
) async throws -> HTTPResult {
    var request = URLRequest(url: URL(string: url)!, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body.map { Data($0.utf8) }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    let (data, response) = try await exchange(request, on: followingRedirects ? URLSession.shared : RedirectsRefused.session)
    let httpResponse = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in httpResponse.allHeaderFields {
        fields[String(describing: name).lowercased()] = String(describing: value)
    }
    return HTTPResult(status: httpResponse.statusCode, headers: fields, body: String(decoding: data, as: UTF8.self))
}

/// `request` on `session`, never cancelled: FoundationNetworking's cancel of a task in flight can crash the process
/// (`URLSession.behaviour(for:)`: "a task that in not in the registry"), so a test that stops waiting lets the
/// exchange end by itself, within its request's timeout.
func exchange(_ request: URLRequest, on session: URLSession = .shared) async throws -> (Data, URLResponse) {
    try await Task { try await session.data(for: request) }.value
}

/// Answers a redirect with the redirect itself, rather than following it.
private final class RedirectsRefused: NSObject, URLSessionTaskDelegate {
    static let session = URLSession(configuration: .ephemeral, delegate: RedirectsRefused(), delegateQueue: nil)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// An HTTP exchange through `curl`, for what URLSession cannot reach: unix sockets.
func curl(socket: String, _ method: String, _ path: String, body: String? = nil, headers: [String] = []) throws -> HTTPResult {
    let process = ChildProcess()
    process.executableURL = URL(filePath: "/usr/bin/curl")
    process.arguments =
        ["-s", "-i", "-X", method, "--unix-socket", socket, "http://localhost\(path)"]
        + (body.map { ["-H", "Content-Type: application/json", "--data-binary", $0] } ?? []) + headers.flatMap { ["-H", $0] }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let split = output.range(of: "\r\n\r\n"), let statusLine = output.split(separator: "\r\n").first else {
        throw DaemonError(description: "curl \(method) \(path) via \(socket) answered: \(output)")
    }
    var headers: [String: String] = [:]
    for line in output[..<split.lowerBound].split(separator: "\r\n").dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
    return HTTPResult(status: status, headers: headers, body: String(output[split.upperBound...]))
}
