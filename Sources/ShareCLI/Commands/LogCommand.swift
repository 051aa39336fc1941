import ArgumentParser
import ShareClient
import ShareKit

struct LogCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show a share's history, oldest first: created or imported, renamed, moved, trashed, restored, its link's changes.",
        discussion: """
            Each change shows when it was made (in your time zone), what it was, and which token made it.

            Example:
              share log 7K2M9QDX
            """)

    @Argument(help: "The share id (any case); a share in the trash too.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var table = GrowingTable(header: ["WHEN", "ACTION", "CHANGE", "BY"])
        var array = StreamedArray(output: context.rawOutput)
        try context.call { () throws(ClientError) in
            try context.api.events(id: id) { events, body in
                guard !context.json else { return array.append(elementsOf: body) }
                let rows = events.map { event in
                    [
                        Formats.localTime(event.at, in: context.zone, seconds: true), event.action.rawValue,
                        event.from.map { from in "\(TerminalText.escape(from)) → \(TerminalText.escape(event.to ?? ""))" } ?? "",
                        TerminalText.escape(event.by),
                    ]
                }
                context.print(table.lines(rows, style: context.style).joined(separator: "\n"))
            }
        }
        if context.json { array.close() }
    }
}
