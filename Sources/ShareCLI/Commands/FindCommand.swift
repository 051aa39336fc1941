import ArgumentParser
import ShareKit

struct FindCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find shares whose file name holds every one of WORDS, in any order and case.",
        discussion: """
            Words are split at spaces and _ - . , so "final report" finds final_report.pdf.
            A phrase in double quotes is one literal piece: '"report draft"'. No wildcards: % and _ are plain.

            Examples:
              share find report
              share find draft report
              share find 报告 --date 2021-01-17
              share find 100% --type xls
            """)

    @Argument(help: ArgumentHelp("Words the file name holds, in any order.", valueName: "words"))
    var words: [String]

    @OptionGroup var filters: FilterOptions
    @OptionGroup var order: OrderOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var query = try ListingQuery.reading([(.q, words.joined(separator: " "))] + filters.texts(zoneName: context.zoneName))
        order.apply(to: &query)
        try Listing(query: query, all: order.paging.all).run(in: context)
    }
}
