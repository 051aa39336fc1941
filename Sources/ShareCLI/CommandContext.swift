import Foundation
import ShareClient
import ShareKit

#if canImport(Glibc)
import Glibc
#endif

/// Where command output goes: the process's stdout, or a buffer in tests.
protocol TextOutput: AnyObject {
    /// Raw bytes, for streamed output whose pieces may split a character.
    func write(bytes: [UInt8])
}

extension TextOutput {
    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }
}

/// Answers to questions such as "Move 2 shares to the trash?"; nil when input ended.
protocol TextInput: AnyObject {
    var isTerminal: Bool { get }
    func readLine() -> String?
}

/// What a command needs to run: the API, the user's zone, and where to talk to the user.
struct CommandContext {
    let api: ShareAPI
    let zone: TimeZone
    /// The zone as the user named it (Foundation reports `UTC` as `GMT`), sent to the server as `tz`.
    let zoneName: String
    let json: Bool
    let style: TerminalStyle
    let output: any TextOutput
    /// Where bytes from the server go as they are (`--json`, `export`): exact into a pipe or a file, escaped on a
    /// terminal, where a control character could rewrite the screen.
    let rawOutput: any TextOutput
    let input: any TextInput
    /// Standard error when it is a terminal, for progress that redraws itself; nil otherwise.
    let statusLine: (any TextOutput)?
    /// Where uploads in progress are noted, to resume in a later run.
    let uploadJournal: UploadJournal

    /// Resolves the options against share.toml and the environment (flags win), and opens the transport.
    static func make(
        _ options: GlobalOptions, environment: [String: String], output: any TextOutput, outputIsTerminal: Bool,
        input: any TextInput, statusLine: (any TextOutput)? = nil,
        transport: (ServerAddress, ClientSettings) throws -> any HTTPTransport
    ) throws -> CommandContext {
        let config: ShareConfig
        do {
            config = try ConfigLoader(environment: environment).load(explicitPath: options.config)
        } catch {
            throw CommandFailure(error.description, status: .configuration)
        }
        let serverText = options.server ?? config.client.server
        guard let server = ServerAddress(serverText) else {
            throw CommandFailure(
                "'\(serverText)' is not a server address such as http://127.0.0.1:8080 or unix:/run/share/shared.sock",
                status: .configuration)
        }
        let zoneName = options.tz ?? (config.client.timezone.isEmpty ? nil : config.client.timezone)
        let zone = zoneName.map(TimeZoneName.zone) ?? .current
        guard let zone else {
            throw CommandFailure("--tz: " + TimeZoneName.refusal(zoneName ?? ""), status: .usage)
        }
        if let user = options.user, !Credential.isUserName(user) {
            throw CommandFailure("--user must be a user name: \(Credential.userNameRule), got '\(user)'", status: .usage)
        }
        let colorAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let colored = colorAllowed && (options.color == .always || ((options.color ?? .auto) == .auto && outputIsTerminal))
        let token = options.token ?? config.client.token
        if options.token == nil, !config.client.token.isEmpty, let file = config.file, let warning = SecretFile.warning(for: file) {
            (statusLine ?? StandardError()).write("share: warning: \(warning)\n")
        }
        return CommandContext(
            api: ShareAPI(
                transport: try transport(server, config.client), server: server, token: token, maxPages: config.client.maxPages,
                user: options.user),
            zone: zone,
            zoneName: zoneName ?? zone.identifier, json: options.json, style: TerminalStyle(enabled: colored), output: output,
            rawOutput: outputIsTerminal ? TerminalEscapingOutput(terminal: output) : output, input: input,
            statusLine: statusLine, uploadJournal: UploadJournal(environment: environment))
    }

    /// The context of a real run: libcurl, the process's stdout and stdin.
    static func live(_ options: GlobalOptions) throws -> CommandContext {
        try make(
            options, environment: ProcessInfo.processInfo.environment, output: StandardOutput(), outputIsTerminal: isatty(1) == 1,
            input: StandardInput(), statusLine: isatty(2) == 1 ? StandardError() : nil,
            transport: { server, settings in
                try CurlTransport(
                    unixSocket: server.unixSocket, timeoutSeconds: settings.timeoutSeconds, maxResponseBytes: settings.maxResponseBytes)
            })
    }

    func print(_ text: String) {
        output.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Prints a response body exactly as the server sent it (escaped on a terminal).
    func printJSON(_ body: Data) {
        rawOutput.write(bytes: Array(body) + (body.last == UInt8(ascii: "\n") ? [] : [UInt8(ascii: "\n")]))
    }
}

final class StandardOutput: TextOutput {
    func write(bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }
}

final class StandardError: TextOutput {
    func write(bytes: [UInt8]) {
        FileHandle.standardError.write(Data(bytes))
    }
}

final class StandardInput: TextInput {
    var isTerminal: Bool { isatty(0) == 1 }

    func readLine() -> String? {
        Swift.readLine()
    }
}
