import ArgumentParser
import ShareClient

struct MoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move shares into a folder.",
        discussion: """
            Name the shares by id, or by filters: every share they match, on every page. Many at once: all of them, \
            or none.

            Examples:
              share mv 7K2M9QDX /reports/2021
              share mv 7K2M9QDX 3D4F5G6H /reports/2021
              share mv --matching invoice --from 2021-01-01 --to 2021-12-31 /invoices/2021
            """)

    @Argument(help: ArgumentHelp("The share ids, then the folder, such as /reports/2021.", valueName: "id-or-folder"))
    var arguments: [String]

    @OptionGroup var match: MatchOptions

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        guard let folder = arguments.last, !folder.isEmpty else { throw ValidationError("name the folder to move the shares to") }
        try match.validate(ids: Array(arguments.dropLast()))
    }

    func run(in context: CommandContext) throws {
        let ids = Array(arguments.dropLast())
        let folder = arguments[arguments.count - 1]
        guard ids.count == 1 else {
            let filter = match.isEmpty ? nil : try match.query(zoneName: context.zoneName)
            let answer = try context.call { () throws(ClientError) in try context.api.batch("move", ids: ids, matching: filter, folder: folder) }
            return context.json
                ? context.printJSON(answer.body) : context.print("Moved \(Formats.shares(answer.count)) to \(TerminalText.escape(folder))")
        }
        let answer = try context.call { () throws(ClientError) in try context.api.update(id: ids[0], folder: folder) }
        context.report(answer, "Moved \(TerminalText.escape(answer.record.id)) to \(TerminalText.escape(answer.record.folder))")
    }
}
