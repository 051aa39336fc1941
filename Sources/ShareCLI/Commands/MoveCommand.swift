import ArgumentParser
import ShareClient

struct MoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move a share into a folder.",
        discussion: "Example:\n  share mv 7K2M9QDX /reports/2021")

    @Argument(help: "The share id.")
    var id: String

    @Argument(help: "The folder, such as /reports/2021.")
    var folder: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: id, folder: folder) }
        context.report(answer, "Moved \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.folder))")
    }
}
