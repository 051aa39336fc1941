import ArgumentParser
import ShareClient

struct RestoreCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring shares back from the trash.",
        discussion: """
            Name the shares by id, or by filters: every share in the trash they match. Many at once: all of them, \
            or none.

            Examples:
              share restore 7K2M9QDX
              share restore --matching report --from 2021-01-01
            """)

    @Argument(help: "Share ids.")
    var ids: [String] = []

    @OptionGroup var match: MatchOptions

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        try match.validate(ids: ids)
    }

    func run(in context: CommandContext) throws {
        guard ids.count == 1 else {
            let filter = match.isEmpty ? nil : try match.query(zoneName: context.zoneName)
            let answer = try context.call { () throws(ClientError) in try context.api.batch("restore", ids: ids, matching: filter) }
            return context.json ? context.printJSON(answer.body) : context.print("Restored \(Formats.shares(answer.count))")
        }
        let answer = try context.call { () throws(ClientError) in try context.api.restore(id: ids[0]) }
        context.report(answer, "Restored \(TerminalText.escape(answer.record.id)) (\(TerminalText.escape(answer.record.name)))")
    }
}
