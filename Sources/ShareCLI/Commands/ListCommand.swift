import ArgumentParser

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

    func validate() throws {
        if let folder, !folder.hasPrefix("/") {
            throw ValidationError("'\(folder)' is neither a command nor a folder (folders start with /); see share --help")
        }
    }

    func run(in context: CommandContext) throws {
        let folderParameter = folder.map { [(name: "folder", value: $0)] } ?? []
        let parameters = folderParameter + filters.parameters(zoneName: context.zoneName) + order.parameters
        try Listing(parameters: parameters, all: order.paging.all).run(in: context)
    }
}

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

    func run(in context: CommandContext) throws {
        let parameters = [(name: "q", value: text)] + filters.parameters(zoneName: context.zoneName) + order.parameters
        try Listing(parameters: parameters, all: order.paging.all).run(in: context)
    }
}

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

    @Option(help: "Order by: created, name or size.")
    var by: SortKey = .created

    @Flag(exclusivity: .exclusive)
    var direction: Direction = .asc

    @OptionGroup var paging: PagingOptions
    @OptionGroup var global: GlobalOptions

    func run(in context: CommandContext) throws {
        let parameters = [(name: "sort", value: by.parameter), (name: "order", value: direction.rawValue)] + paging.parameters
        try Listing(parameters: parameters, all: paging.all).run(in: context)
    }
}

struct TrashCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "List the shares in the trash.",
        discussion: "Example:\n  share trash --all")

    @OptionGroup var paging: PagingOptions
    @OptionGroup var global: GlobalOptions

    func run(in context: CommandContext) throws {
        try Listing(parameters: [(name: "trashed", value: "true")] + paging.parameters, all: paging.all).run(in: context)
    }
}
