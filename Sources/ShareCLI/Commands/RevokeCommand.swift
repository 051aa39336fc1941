import ArgumentParser
import ShareClient

struct RevokeCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Cut a share's link off, for good: it answers that it no longer opens.",
        discussion: "Example:\n  share revoke 7K2M9QDX")

    @Argument(help: "The share id.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.revoke(id: id) }
        context.report(answer, "Revoked the link of \(TerminalText.escape(answer.record.id))")
    }
}
