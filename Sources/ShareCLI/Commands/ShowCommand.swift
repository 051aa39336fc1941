import ArgumentParser
import ShareClient
import ShareKit

struct ShowCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one share.",
        discussion: """
            With its link, when it has one: the link's code, until when it opens, and its downloads.

            Example:
              share show 7K2M9QDX
            """)

    @Argument(help: "The share id (any case).")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.share(id: id) }
        if context.json {
            context.printJSON(answer.body)
            return
        }
        let record = answer.record
        context.print(
            """
            \(context.style.bold(TerminalText.escape(record.name)))
              id:      \(TerminalText.escape(record.id))\(linkLines(record, context))
              type:    \(context.style.category(record.type.rawValue, record.type))
              size:    \(ByteSize.text(record.size)) (\(record.size) bytes)
              folder:  \(TerminalText.escape(record.folder))
              shared:  \(Formats.localTime(record.createdAt, in: context.zone, seconds: true)) (\(context.zone.identifier))\(fileLines(record))
            """)
    }

    /// The files of a share of several: each one's path and size, the first `listedFiles` of them.
    private func fileLines(_ record: ShareRecord) -> String {
        guard let files = record.files else { return "" }
        var lines = "\n  files:   \(files.count)"
        for file in files.prefix(Self.listedFiles) { lines += "\n    \(TerminalText.escape(file.name))  \(ByteSize.text(file.size))" }
        if files.count > Self.listedFiles { lines += "\n    and \(files.count - Self.listedFiles) more" }
        return lines
    }

    private static let listedFiles = 50

    /// The link's lines: where, its code, who it is from and its message, its state, until when and for how many downloads.
    private func linkLines(_ record: ShareRecord, _ context: CommandContext) -> String {
        guard let link = record.link else { return "" }
        var lines = "\n  link:    \(TerminalText.escape(context.api.server.absolute(link)))"
        if let code = record.code { lines += "\n  code:    \(TerminalText.escape(code))" }
        if let source = record.source { lines += "\n  source:  \(TerminalText.escape(source))" }
        if let sender = record.sender { lines += "\n  from:    \(TerminalText.escape(sender))" }
        if let message = record.message {
            lines +=
                "\n  message: "
                + message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escape(String($0)) }
                .joined(separator: "\n           ")
        }
        if let state = record.state {
            var limits = [record.expiresAt.map { "until \(Formats.localTime($0, in: context.zone))" }].compactMap { $0 }
            if let max = record.maxDownloads { limits.append("\(max) downloads at most") }
            let downloads = record.downloads == 1 ? "1 download" : "\(record.downloads ?? 0) downloads"
            lines += "\n  state:   \(state.rawValue), \(downloads)" + (limits.isEmpty ? "" : " (\(limits.joined(separator: ", ")))")
        }
        return lines
    }
}
