import ArgumentParser
import ShareKit

struct SortCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "sort",
        abstract: "List shares in order: oldest first unless --desc.",
        discussion: """
            Examples:
              share sort                 oldest first
              share sort --desc          newest first
              share sort --by name       A to Z, ignoring case
              share sort --by size --desc --limit 10
            """)

    @Option(help: "Order by: created, name, size or downloads.")
    var by: ListingSort = .createdAt

    @Flag(exclusivity: .exclusive)
    var direction: ListingOrder = .asc

    @OptionGroup var paging: PagingOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var query = ListingQuery()
        (query.sort, query.order) = (by, direction)
        paging.apply(to: &query)
        try Listing(query: query, all: paging.all).run(in: context)
    }
}
