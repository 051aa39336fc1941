import ArgumentParser
import ShareKit

struct TrashCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "List the shares in the trash.",
        discussion: "Example:\n  share trash --all")

    @OptionGroup var paging: PagingOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var query = ListingQuery()
        query.trashed = true
        paging.apply(to: &query)
        try Listing(query: query, all: paging.all).run(in: context)
    }
}
