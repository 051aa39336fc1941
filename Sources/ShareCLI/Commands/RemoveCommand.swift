import ArgumentParser
import ShareClient

struct RemoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Move shares to the trash, or delete them for good with --purge.",
        discussion: """
            Asks first on a terminal; elsewhere (scripts, pipes) it needs --yes.

            Examples:
              share rm 7K2M9QDX
              share rm 7K2M9QDX 3D4F5G6H --yes     (all of them, or none)
              share rm 7K2M9QDX --purge --yes
            """)

    @Argument(help: "Share ids.")
    var ids: [String]

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    @Flag(help: "Delete for good instead of moving to the trash.")
    var purge = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one share id") }
    }

    func run(in context: CommandContext) throws {
        if !yes {
            guard context.input.isTerminal else {
                throw ValidationError("refusing to delete without --yes when input is not a terminal")
            }
            let what = ids.count == 1 ? "share \(TerminalText.escape(ids[0]))" : "\(ids.count) shares"
            context.output.write(purge ? "Delete \(what) for good? [y/N] " : "Move \(what) to the trash? [y/N] ")
            guard let answer = context.input.readLine()?.lowercased(), answer == "y" || answer == "yes" else {
                context.print("Nothing deleted.")
                return
            }
        }
        guard ids.count == 1 else {
            // Many at once: all of them, or none.
            let answer = try context.call { () throws(ClientError) in try context.api.batch(purge ? "purge" : "trash", ids: ids) }
            if context.json { return context.printJSON(answer.body) }
            return context.print(purge ? "Deleted \(answer.count) shares for good" : "Moved \(answer.count) shares to the trash")
        }
        try context.call { () throws(ClientError) in try context.api.delete(id: ids[0], purge: purge) }
        if !context.json {
            context.print(purge ? "Deleted \(TerminalText.escape(ids[0])) for good" : "Moved \(TerminalText.escape(ids[0])) to the trash")
        }
    }
}
