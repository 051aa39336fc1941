import ArgumentParser
import ShareKit

/// Many shares by what they are rather than by id (`share rm --matching draft --type pdf`): every share the filters
/// match, on every page, acted on in one request.
struct MatchOptions: ParsableArguments {
    @Option(name: .customLong("matching"), help: ArgumentHelp("Every share whose name holds these words (any order and case).", valueName: "words"))
    var text: String?

    @Option(name: .customLong("in"), help: ArgumentHelp("Every share in this folder and its subfolders.", valueName: "folder"))
    var folder: String?

    @OptionGroup var filters: FilterOptions

    /// Whether no filter was given (the command then takes ids).
    var isEmpty: Bool {
        [text, folder, filters.date, filters.from, filters.to, filters.type].allSatisfy { $0 == nil }
    }

    /// The listing the filters make, read by the server's rules: a wrong value is refused before anything is sent.
    func query(zoneName: String) throws -> ListingQuery {
        try ListingQuery.reading([(.q, text)] + ListingQuery.tree(folder) + filters.texts(zoneName: zoneName))
    }

    /// Checks that the command was given ids or filters, not both and not neither.
    func validate(ids: [String]) throws {
        if ids.isEmpty && isEmpty { throw ValidationError("name share ids, or filters such as --matching TEXT or --in FOLDER") }
        if !ids.isEmpty && !isEmpty { throw ValidationError("name share ids or filters, not both") }
    }
}
