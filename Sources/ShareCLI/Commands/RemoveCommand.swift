import ArgumentParser
import ShareClient
import ShareKit

struct RemoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Move shares to the trash, or delete them for good with --purge.",
        discussion: """
            Name the shares by id, or by filters: every share they match, on every page. Asks first on a terminal; \
            elsewhere (scripts, pipes) it needs --yes. Many at once: all of them, or none.

            Examples:
              share rm 7K2M9QDX
              share rm 7K2M9QDX 3D4F5G6H --yes
              share rm 7K2M9QDX --purge --yes
              share rm --matching draft --type pdf --to 2021-12-31
            """)

    @Argument(help: "Share ids.")
    var ids: [String] = []

    @OptionGroup var match: MatchOptions

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    @Flag(help: "Delete for good instead of moving to the trash.")
    var purge = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        try match.validate(ids: ids)
    }

    func run(in context: CommandContext) throws {
        let filter = match.isEmpty ? nil : try match.query(zoneName: context.zoneName)
        if !yes {
            let what = try filter.map { filter in
                let matching = try context.call { () throws(ClientError) in try context.api.stats(filter, by: StatsPeriod.none) }.stats.count
                return "the matching \(Formats.shares(matching))"
            }
            let named = ids.count == 1 ? "share \(TerminalText.escape(ids[0]))" : Formats.shares(ids.count)
            let question = purge ? "Delete \(what ?? named) for good?" : "Move \(what ?? named) to the trash?"
            guard try context.confirm(question, assumed: yes, refusing: "delete") else {
                context.print("Nothing deleted.")
                return
            }
        }
        guard ids.count == 1 else {
            let answer = try context.call { () throws(ClientError) in try context.api.batch(purge ? "purge" : "trash", ids: ids, matching: filter) }
            if context.json { return context.printJSON(answer.body) }
            return context.print(purge ? "Deleted \(Formats.shares(answer.count)) for good" : "Moved \(Formats.shares(answer.count)) to the trash")
        }
        try context.call { () throws(ClientError) in try context.api.delete(id: ids[0], purge: purge) }
        if !context.json {
            context.print(purge ? "Deleted \(TerminalText.escape(ids[0])) for good" : "Moved \(TerminalText.escape(ids[0])) to the trash")
        }
    }
}
