import ArgumentParser
import Foundation
import ShareKit
import ShareTestSupport
import Testing

@testable import ShareCLI
@testable import ShareClient

extension UploadSource {
    /// Everything left to send, as a transport that does not stream would take it.
    func readAll() -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while let count = chunk.withUnsafeMutableBytes({ read(into: $0) }), count > 0 { data.append(contentsOf: chunk[..<count]) }
        return data
    }
}

/// A transport that answers from a script and records every request; an unscripted request fails the test.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    private var script: [(method: String, url: String, answer: Result<HTTPResponse, TransportError>)] = []
    private(set) var sent: [HTTPRequest] = []

    @discardableResult
    func on(_ method: String, _ url: String, status: Int = 200, headers: [String: String] = [:], body: String = "") -> Self {
        script.append((method, url, .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))))
        return self
    }

    @discardableResult
    func on(_ method: String, _ url: String, fail error: TransportError) -> Self {
        script.append((method, url, .failure(error)))
        return self
    }

    /// Reads an upload whole, and hands a successful body to the sink, as a streaming transport would.
    func send(_ request: HTTPRequest, sink: (([UInt8]) -> Void)?) throws(TransportError) -> HTTPResponse {
        var request = request
        if let upload = request.upload { request.body = upload.readAll() }
        sent.append(request)
        guard !script.isEmpty else {
            Issue.record("unexpected request \(request.method) \(request.url)")
            throw .failed(reason: "unexpected request")
        }
        let next = script.removeFirst()
        #expect(request.method == next.method)
        #expect(request.url == next.url)
        var response = try next.answer.get()
        if let sink, (200..<300).contains(response.status) {
            sink(Array(response.body))
            response.body = Data()
        }
        return response
    }

    var isDone: Bool { script.isEmpty }
}

final class CapturedOutput: TextOutput {
    var bytes: [UInt8] = []
    var text: String { String(decoding: bytes, as: UTF8.self) }
    func write(bytes: [UInt8]) { self.bytes += bytes }
}

final class ScriptedInput: TextInput {
    let isTerminal: Bool
    var lines: [String]
    init(isTerminal: Bool, lines: [String] = []) {
        self.isTerminal = isTerminal
        self.lines = lines
    }
    func readLine() -> String? { lines.isEmpty ? nil : lines.removeFirst() }
}

/// What a run of `share` showed: its standard output, and the failure it ended with, if any.
struct CLIRun {
    let output: String
    let failure: String?
    let exitStatus: Int32
}

let server = "http://shares.test:8080"

/// Parses and runs `arguments` as `share` would, against `transport`, with no user config file.
func runShare(
    _ arguments: [String], transport: FakeTransport, environment: [String: String] = [:], input: ScriptedInput? = nil,
    outputIsTerminal: Bool = false
) throws -> CLIRun {
    let emptyConfig = try temporaryFolder("cli").appending(path: "share.toml")
    try Data().write(to: emptyConfig)
    let environment = ["SHARE_CONFIG": emptyConfig.path, "SHARE_SERVER": server, "TZ": "UTC"].merging(environment) { $1 }
    let output = CapturedOutput()
    do {
        let command = try ShareCommand.parseAsRoot(arguments)
        guard let subcommand = command as? any ShareSubcommand else { throw CommandFailure("not a subcommand", status: .failure) }
        let context = try CommandContext.make(
            subcommand.options, environment: environment, output: output, outputIsTerminal: outputIsTerminal,
            input: input ?? ScriptedInput(isTerminal: false), transport: { _, _ in transport })
        try subcommand.run(in: context)
        return CLIRun(output: output.text, failure: nil, exitStatus: 0)
    } catch let failure as CommandFailure {
        return CLIRun(output: output.text, failure: failure.message, exitStatus: failure.status.rawValue)
    } catch {
        return CLIRun(output: output.text, failure: ShareCommand.message(for: error), exitStatus: ShareCommand.exitCode(for: error).rawValue)
    }
}

/// A record as the server would send it.
func recordJSON(
    id: String = "7K2M9QDX", name: String = "report.pdf", size: Int64 = 1_200_000, createdAt: String = "2021-01-17T12:40:00.000Z",
    type: String = "pdf", folder: String = "/"
) -> String {
    let record = ShareRecord(
        id: id, name: name, folder: folder, createdAt: Timestamp(rfc3339: createdAt)!, size: size,
        type: IconCategory(rawValue: type) ?? .other)
    return String(decoding: try! WireJSON.encoder().encode(record), as: UTF8.self)
}
