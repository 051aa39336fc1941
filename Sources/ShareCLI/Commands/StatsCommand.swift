import ArgumentParser
import Foundation
import ShareClient
import ShareKit

extension StatsPeriod: ExpressibleByArgument {}

struct StatsCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count shares and the space they take: in total, per type, and per day, month or year.",
        discussion: """
            Without --by, the period fits the span: days up to three months, months up to five years, years beyond.

            Examples:
              share stats
              share stats /reports --from 2021-01-01 --to 2021-12-31 --by month
              share stats --type image,video --json
            """)

    @Argument(help: "Only shares in this folder and its subfolders.")
    var folder: String?

    @Option(help: "Count per day, month or year, or none (default: what fits the span).")
    var by: StatsPeriod?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var query = try ListingQuery.reading(
            ListingQuery.tree(folder) + filters.texts(zoneName: context.zoneName))
        // Days are always the user's days.
        query.zone = context.zoneName
        let answer = try context.call { () throws(ClientError) in try context.api.stats(query, by: by) }
        if context.json {
            context.printJSON(answer.body)
            return
        }
        let stats = answer.stats
        context.print("\(Formats.shares(stats.count)), \(ByteSize.text(stats.bytes))")
        guard stats.count > 0 else { return }
        let types = stats.types.sorted { $0.value.bytes > $1.value.bytes }.map { [$0.key, String($0.value.count), ByteSize.text($0.value.bytes)] }
        var text = "\n" + table(["TYPE", "SHARES", "SIZE"], types, context)
        if stats.by != .none {
            let periods = stats.periods.map { [$0.period, String($0.count), ByteSize.text($0.bytes)] }
            text += "\n\n" + table([stats.by.rawValue.uppercased(), "SHARES", "SIZE"], periods, context)
        }
        context.print(text)
    }

    /// A left column and two right-aligned number columns; every cell comes from the server, so every cell is escaped.
    private func table(_ header: [String], _ rows: [[String]], _ context: CommandContext) -> String {
        TextTable.render([header] + rows.map { $0.map(TerminalText.escape) }, rightAligned: [1, 2], style: context.style)
    }
}
