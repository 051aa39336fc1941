import ArgumentParser
import ShareClient

struct RenameCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a share; its type follows the new name.",
        discussion: "Example:\n  share rename 7K2M9QDX \"Q1 report final.pdf\"")

    @Argument(help: "The share id.")
    var id: String

    @Argument(help: "The new file name.")
    var newName: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: id, name: newName) }
        context.report(answer, "Renamed \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.name))")
    }
}
