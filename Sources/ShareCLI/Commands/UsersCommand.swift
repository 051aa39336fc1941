import ArgumentParser
import ShareClient
import ShareKit

struct UsersCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List every user with shares, with their count and the space they take (admins only).",
        discussion: """
            Under per-user histories an admin ([auth] admins) may also act on any of them with --user.

            Examples:
              share users
              share --user bob ls
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.users() }
        if context.json {
            context.printJSON(answer.body)
            return
        }
        guard !answer.users.isEmpty else {
            context.print("No user has shares.")
            return
        }
        let rows = answer.users.map { [TerminalText.escape($0.user), String($0.count), ByteSize.text($0.bytes)] }
        context.print(TextTable.render([["USER", "SHARES", "SIZE"]] + rows, rightAligned: [1, 2], style: context.style))
    }
}
