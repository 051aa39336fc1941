import ArgumentParser
import ShareClient

struct MessageCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Set what a share's link page says to its recipient: a message, and who it is from.",
        discussion: """
            The recipient sees both above the file, once any code is given. --clear removes the message; \
            --sender "" removes the name.

            Examples:
              share message 7K2M9QDX "The signed copy, page 4."
              share message 7K2M9QDX --sender "Zoé Martin"
              share message 7K2M9QDX --clear
            """)

    @Argument(help: "The share id.")
    var id: String

    @Argument(help: "The message (at most 1000 characters).")
    var text: String?

    @Option(help: ArgumentHelp("Who the page says sent it: a name you choose (at most 80 characters); \"\" clears it.", valueName: "name"))
    var sender: String?

    @Flag(help: "Remove the message.")
    var clear = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if clear && text != nil { throw ValidationError("give a message or --clear, not both") }
        if !clear && text == nil && sender == nil { throw ValidationError("give a message, --sender or --clear") }
    }

    func run(in context: CommandContext) throws {
        let message: String?? = clear ? .some(nil) : text.map { .some($0) }
        let name: String?? = sender.map { $0.isEmpty ? String?.none : $0 }
        let answer = try context.call { () throws(ClientError) in try context.api.greet(id: id, sender: name, message: message) }
        let said = [answer.record.sender.map { "from \(TerminalText.escape($0))" }, answer.record.message.map { _ in "with a message" }]
            .compactMap { $0 }
        context.report(
            answer, "The link of \(TerminalText.escape(answer.record.id)) says " + (said.isEmpty ? "nothing more" : said.joined(separator: ", ")))
    }
}
