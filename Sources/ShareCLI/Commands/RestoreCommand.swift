import ArgumentParser
import ShareClient

struct RestoreCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring shares back from the trash.",
        discussion: "Example:\n  share restore 7K2M9QDX")

    @Argument(help: "Share ids.")
    var ids: [String]

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one share id") }
    }

    func run(in context: CommandContext) throws {
        for id in ids {
            let answer = try context.call { () throws(ClientError) in try context.api.restore(id: id) }
            context.report(answer, "Restored \(TerminalText.escape(answer.record.id)) (\(TerminalText.escape(answer.record.name)))")
        }
    }
}
