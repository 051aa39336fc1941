import ArgumentParser
import ShareClient
import ShareKit

struct FoldersCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "folders",
        abstract: "List a folder's subfolders, with how many shares each holds and the space they take.",
        discussion: """
            A subfolder's count and size include everything below it. Folders exist while shares are in them.

            Examples:
              share folders
              share folders /reports
              share ls /reports/2021
            """)

    @Argument(help: "The folder to look into (default: /, the top).")
    var path = FolderPath.root

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.folders(in: path) }
        if context.json {
            context.printJSON(answer.body)
            return
        }
        guard !answer.folders.isEmpty else {
            context.print("No folders in \(TerminalText.escape(path)).")
            return
        }
        let rows = answer.folders.map { [TerminalText.escape($0.folder), String($0.count), ByteSize.text($0.bytes)] }
        context.print(TextTable.render([["FOLDER", "SHARES", "SIZE"]] + rows, rightAligned: [1, 2], style: context.style))
    }
}
