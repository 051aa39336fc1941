import ArgumentParser
import ShareClient
import ShareKit

struct ShowCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one share.",
        discussion: """
            With the server's link pattern ([server] share_url), the share's link too.

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
        // The link is a courtesy: a server that does not say its pattern still shows the share.
        let link = (try? context.api.whoami().user)?.link(to: record.id).map { "\n  link:    \(TerminalText.escape($0))" } ?? ""
        context.print(
            """
            \(context.style.bold(TerminalText.escape(record.name)))
              id:      \(TerminalText.escape(record.id))\(link)
              type:    \(context.style.category(record.type.rawValue, record.type))
              size:    \(ByteSize.text(record.size)) (\(record.size) bytes)
              folder:  \(TerminalText.escape(record.folder))
              shared:  \(Formats.localTime(record.createdAt, in: context.zone, seconds: true)) (\(context.zone.identifier))
            """)
    }
}
