import ArgumentParser
import ShareKit

/// The CLI's words for a listing's sort: `created`, `name`, `size`, `downloads`.
extension ListingSort: ExpressibleByArgument {
    public init?(argument: String) {
        guard let sort = Self.allCases.first(where: { $0.commandLineName == argument }) else { return nil }
        self = sort
    }

    public var defaultValueDescription: String { commandLineName }

    public static var allValueStrings: [String] { allCases.map(\.commandLineName) }

    /// What `--help` says of each value.
    public static var allValueDescriptions: [String: String] {
        [
            "created": "when it was shared", "name": "the file name, case-insensitively", "size": "its size in bytes",
            "downloads": "its completed downloads",
        ]
    }

    var commandLineName: String { self == .createdAt ? "created" : rawValue }
}

extension ListingOrder: EnumerableFlag {
    public static func help(for value: ListingOrder) -> ArgumentHelp? {
        value == .asc ? "Oldest, smallest, least downloaded or A first." : "Newest, largest, most downloaded or Z first."
    }
}

/// The paging options of every listing.
struct PagingOptions: ParsableArguments {
    @Option(help: "Show at most N shares (1–1000, default 100).")
    var limit: Int?

    @Flag(help: "Show every matching share, following the server's pages.")
    var all = false

    func validate() throws {
        if let limit, !ListingQuery.limits.contains(limit) {
            throw ValidationError("--limit must be from 1 to \(ListingQuery.limits.upperBound)")
        }
        if limit != nil && all { throw ValidationError("give --limit or --all, not both") }
    }

    func apply(to query: inout ListingQuery) {
        // With --all, big pages mean fewer round trips.
        query.limit = all ? ListingQuery.limits.upperBound : limit
    }
}

/// Which shares: by day or range in the user's zone, by icon category, and by their link's state.
struct FilterOptions: ParsableArguments {
    @Option(help: "Only shares from this day (YYYY-MM-DD), in your time zone.")
    var date: String?

    @Option(help: "Only shares from this day or time on (YYYY-MM-DD or RFC 3339).")
    var from: String?

    @Option(help: "Only shares up to this day (inclusive) or time (exclusive).")
    var to: String?

    @Option(help: "Only these icon categories, comma-separated: image, pdf, doc, txt, ppt, xls, zip, audio, video, other.")
    var type: String?

    @Option(help: "Only shares whose link is in these states, comma-separated: active, expired, revoked.")
    var state: String?

    func validate() throws {
        if date != nil && (from != nil || to != nil) { throw ValidationError("give --date, or --from/--to, not both") }
        if let date, CalendarDay(date) == nil { throw ValidationError("--date must be a day as YYYY-MM-DD, got '\(date)'") }
    }

    /// The filters as the listing's texts, with dates read in the zone named `zoneName` (always sent, so days are
    /// the user's).
    func texts(zoneName: String) -> [(ListingQuery.Parameter, String?)] {
        [(.date, date), (.from, from), (.to, to), (.type, type), (.state, state), (.tz, date ?? from ?? to == nil ? nil : zoneName)]
    }
}

extension ListingQuery {
    /// The texts of a folder and everything below it (`share stats /reports`, `share rm --in /reports`).
    static func tree(_ folder: String?) -> [(Parameter, String?)] {
        [(.folder, folder), (.recursive, folder.map { _ in "true" })]
    }

    /// A query from command-line texts, read by the server's own rule: a wrong value is refused here as the
    /// server would refuse it, in its words and with the same exit status, before anything is sent.
    static func reading(_ texts: [(Parameter, String?)]) throws -> ListingQuery {
        do {
            return try ListingQuery(parameters: texts.compactMap { parameter, text in text.map { (parameter.rawValue, $0) } })
        } catch {
            throw CommandFailure(error.detail, status: .rejected)
        }
    }
}

/// How `ls` and `find` order and page their listing.
struct OrderOptions: ParsableArguments {
    @Option(help: "Order by: created, name, size or downloads (default created).")
    var sort: ListingSort?

    @Flag(exclusivity: .exclusive)
    var direction: ListingOrder?

    @OptionGroup var paging: PagingOptions

    func apply(to query: inout ListingQuery) {
        (query.sort, query.order) = (sort, direction)
        paging.apply(to: &query)
    }
}
