import ArgumentParser
import ShareKit

struct ListCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List shares, newest first.",
        discussion: """
            Examples:
              share ls                          the latest 100 shares
              share ls --date 2021-01-17        shares of that day in your time zone
              share ls /reports --type pdf,doc  PDFs and documents in /reports
              share ls --sort size --desc --all every share, largest first
            """)

    @Argument(help: "Only shares in this folder, such as /reports/2021.")
    var folder: String?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var order: OrderOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if let folder, !folder.hasPrefix("/") {
            throw ValidationError("'\(folder)' is neither a command nor a folder (folders start with /); see share --help")
        }
    }

    func run(in context: CommandContext) throws {
        var query = try ListingQuery.reading([(.folder, folder)] + filters.texts(zoneName: context.zoneName))
        order.apply(to: &query)
        try Listing(query: query, all: order.paging.all).run(in: context)
    }
}
