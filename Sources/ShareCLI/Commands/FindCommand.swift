import ArgumentParser
import ShareKit

struct FindCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find shares whose file name contains TEXT (any case, literal).",
        discussion: """
            Examples:
              share find report
              share find 报告 --date 2021-01-17
              share find 100% --type xls
            """)

    @Argument(help: "Text the file name contains.")
    var text: String

    @OptionGroup var filters: FilterOptions
    @OptionGroup var order: OrderOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var query = try ListingQuery.reading([(.q, text)] + filters.texts(zoneName: context.zoneName))
        order.apply(to: &query)
        try Listing(query: query, all: order.paging.all).run(in: context)
    }
}
