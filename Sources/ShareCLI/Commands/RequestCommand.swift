import ArgumentParser
import Foundation
import ShareClient
import ShareKit

/// `share request`: a link that collects files, and `share request close`.
struct RequestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask for files: a link through which anyone sends files into a folder of yours.",
        usage: """
            share request TITLE [--folder F] [--max-files N] [--max-bytes SIZE] [--expires 7d|DATE] [--code [CODE]]
              share request close ID
            """,
        discussion: """
            Whoever has the link (and its code, with --code) opens a page to drop or pick files, which upload with \
            their progress and resume after a break; or sends each with curl -T FILE LINK/files/NAME. Each file becomes \
            a share in the folder, counted against your quota; nobody with the link sees what others sent. share \
            requests lists them, with what each received.

            Examples:
              share request "Tax papers 2026" --folder /taxes --max-files 10 --max-bytes 50MB --expires 14d --code
              share request close T0D07VBC
            """,
        subcommands: [RequestCreateCommand.self, RequestCloseCommand.self],
        defaultSubcommand: RequestCreateCommand.self)
}

struct RequestCreateCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Make a file request; prints its id, link and code.", shouldDisplay: false)

    @Argument(help: "What the request asks for, as its page shows it.")
    var title: String

    @Option(help: "The folder the files go to (default /).")
    var folder: String?

    @Option(help: "The most files it takes (default: no limit).")
    var maxFiles: Int64?

    @Option(help: "The largest file it takes (default: the server's max_upload_bytes).")
    var maxBytes: ByteAmount?

    @Option(help: "When it stops taking files: a span (30m, 12h, 7d, 2w), a date (through its end) or a time.")
    var expires: String?

    @Option(help: ArgumentHelp("A code the link asks for (4-32 letters or digits); without one, the server draws it.", valueName: "code"))
    var code: String?

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if let maxFiles, maxFiles < 1 { throw ValidationError("--max-files must be 1 or more; got \(maxFiles)") }
    }

    func run(in context: CommandContext) throws {
        let link = NewLinkFields(
            expiresAt: try expires.map { try LinkExpiry.parse($0, in: context.zone) },
            code: code.map { $0 == CodeArgument.drawn ? .drawn : .chosen($0) } ?? .none)
        let (request, body) = try context.call { () throws(ClientError) in
            try context.api.createRequest(title: title, folder: folder, maxFiles: maxFiles, maxBytes: maxBytes?.bytes, link: link)
        }
        guard !context.json else { return context.printJSON(body) }
        context.print("\(request.id)  \(TerminalText.escape(request.title))")
        if let link = request.link { context.print("  link: \(TerminalText.escape(context.api.server.absolute(link)))") }
        if let code = request.code { context.print("  code: \(TerminalText.escape(code))") }
        context.print("  into: \(TerminalText.escape(request.folder)) · \(RequestWords.limits(request, in: context.zone))")
    }
}

struct RequestCloseCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "close", abstract: "Close a file request: its link takes no more files, those on their way are dropped; those it received stay.")

    @Argument(help: "The request's id.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let (request, body) = try context.call { () throws(ClientError) in try context.api.closeRequest(id: id) }
        guard !context.json else { return context.printJSON(body) }
        context.print("Closed request \(request.id) (\(TerminalText.escape(request.title))): \(RequestWords.received(request)).")
    }
}

/// `share requests`: the file requests, newest first.
struct RequestsCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "List your file requests, newest first: what each received and whether it still takes files.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let (requests, body) = try context.call { () throws(ClientError) in try context.api.requests() }
        guard !context.json else { return context.printJSON(body) }
        guard !requests.isEmpty else { return context.print("No file requests. Make one with: share request TITLE") }
        let rows = requests.map { request in
            [
                request.id, TerminalText.escape(request.title), TerminalText.escape(request.folder), RequestWords.received(request),
                RequestWords.state(request, in: context.zone), request.link.map { TerminalText.escape(context.api.server.absolute($0)) } ?? "",
            ]
        }
        var table = GrowingTable(header: ["ID", "TITLE", "FOLDER", "RECEIVED", "STATE", "LINK"])
        context.print(table.lines(rows, style: context.style).joined(separator: "\n"))
    }
}

/// How a file request's limits and state read.
enum RequestWords {
    /// `2 of 10 files`, `1 file`.
    static func received(_ request: FileRequest) -> String {
        let noun = (request.maxFiles ?? request.received) == 1 ? "file" : "files"
        return request.maxFiles.map { "\(request.received) of \($0) \(noun)" } ?? "\(request.received) \(noun)"
    }

    /// `open until 2026-12-14 18:00`, `full`, `closed`, `expired`.
    static func state(_ request: FileRequest, in zone: TimeZone) -> String {
        guard request.state == .open else { return request.state.rawValue }
        return request.expiresAt.map { "open until \(Formats.localTime($0, in: zone))" } ?? "open"
    }

    /// `up to 10 files, each at most 50.0 MB, open until 2026-12-14 18:00`.
    static func limits(_ request: FileRequest, in zone: TimeZone) -> String {
        var words = [request.maxFiles.map { $0 == 1 ? "1 file" : "up to \($0) files" } ?? "any number of files"]
        if let maxBytes = request.maxBytes { words.append("each at most \(ByteSize.text(maxBytes))") }
        words.append(state(request, in: zone))
        return words.joined(separator: ", ")
    }
}
