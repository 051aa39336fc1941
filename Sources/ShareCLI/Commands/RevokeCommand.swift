import ArgumentParser
import ShareClient

struct RevokeCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Cut a share's link off at once: it answers that it no longer opens (the page's Share again reopens it).",
        discussion: """
            Asks first on a terminal; elsewhere (scripts, pipes) it needs --yes. Downloads in flight stop too.

            Examples:
              share revoke 7K2M9QDX
              share revoke 7K2M9QDX --yes
            """)

    @Argument(help: "The share id.")
    var id: String

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        guard try context.confirm("Cut the link of share \(TerminalText.escape(id)) off?", assumed: yes, refusing: "revoke a link") else {
            return context.print("Nothing revoked.")
        }
        let answer = try context.call { () throws(ClientError) in try context.api.revoke(id: id) }
        context.report(answer, "Revoked the link of \(TerminalText.escape(answer.record.id))")
    }
}
