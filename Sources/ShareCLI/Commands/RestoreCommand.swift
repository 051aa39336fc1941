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
        guard ids.count == 1 else {
            // Many at once: all of them, or none.
            let answer = try context.call { () throws(ClientError) in try context.api.batch("restore", ids: ids) }
            return context.json ? context.printJSON(answer.body) : context.print("Restored \(answer.count) shares")
        }
        let answer = try context.call { () throws(ClientError) in try context.api.restore(id: ids[0]) }
        context.report(answer, "Restored \(TerminalText.escape(answer.record.id)) (\(TerminalText.escape(answer.record.name)))")
    }
}
