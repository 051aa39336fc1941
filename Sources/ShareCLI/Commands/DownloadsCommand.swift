import ArgumentParser
import ShareClient
import ShareKit

struct DownloadsCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads",
        abstract: "Show who downloaded a share through its link, newest first.",
        discussion: """
            Each download shows when (in your time zone), from which network (the address cut to its /24 or /48), \
            with what (the browser's family, curl, share), and how many bytes.

            Example:
              share downloads 7K2M9QDX
            """)

    @Argument(help: "The share id (any case); a share in the trash too.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.printPages(
            header: ["WHEN", "FROM", "WITH", "BYTES", "FINISHED"], empty: "No downloads of \(TerminalText.escape(id)) yet.",
            { page throws(ClientError) in try context.api.downloads(id: id, page) }
        ) { download in
            [
                Formats.localTime(download.at, in: context.zone, seconds: true), TerminalText.escape(download.address),
                TerminalText.escape(download.agent), download.bytes.map(ByteSize.text) ?? "-", download.complete ? "whole" : "stopped",
            ]
        }
    }
}
