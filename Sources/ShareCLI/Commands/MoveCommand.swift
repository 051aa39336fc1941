import ArgumentParser
import ShareClient

struct MoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move shares into a folder.",
        discussion: """
            Examples:
              share mv 7K2M9QDX /reports/2021
              share mv 7K2M9QDX 3D4F5G6H /reports/2021     (all of them, or none)
            """)

    @Argument(help: ArgumentHelp("The share ids, then the folder, such as /reports/2021.", valueName: "id-or-folder"))
    var arguments: [String]

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if arguments.count < 2 { throw ValidationError("name a share id and the folder to move it to") }
    }

    func run(in context: CommandContext) throws {
        let ids = arguments.dropLast().map { $0 }
        let folder = arguments[arguments.count - 1]
        guard ids.count == 1 else {
            // Many at once: all of them, or none.
            let answer = try context.call { () throws(ClientError) in try context.api.batch("move", ids: ids, folder: folder) }
            return context.json ? context.printJSON(answer.body) : context.print("Moved \(answer.count) shares to \(TerminalText.escape(folder))")
        }
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: ids[0], folder: folder) }
        context.report(answer, "Moved \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.folder))")
    }
}
