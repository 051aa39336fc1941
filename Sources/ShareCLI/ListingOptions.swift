import ArgumentParser
import ShareKit

/// What a listing can be ordered by, in the CLI's words.
enum SortKey: String, ExpressibleByArgument, CaseIterable {
    case created, name, size

    var parameter: String { self == .created ? "createdAt" : rawValue }
}

enum Direction: String, EnumerableFlag {
    case asc, desc

    static func help(for value: Direction) -> ArgumentHelp? {
        value == .asc ? "Oldest, smallest or A first." : "Newest, largest or Z first."
    }
}

/// The paging options of every listing.
struct PagingOptions: ParsableArguments {
    @Option(help: "Show at most N shares (1–1000, default 100).")
    var limit: Int?

    @Flag(help: "Show every matching share, following the server's pages.")
    var all = false

    func validate() throws {
        if let limit, !(1...1000).contains(limit) { throw ValidationError("--limit must be from 1 to 1000") }
        if limit != nil && all { throw ValidationError("give --limit or --all, not both") }
    }

    var parameters: [(name: String, value: String)] {
        // With --all, big pages mean fewer round trips.
        let size = all ? 1000 : limit
        return size.map { [(name: "limit", value: String($0))] } ?? []
    }
}

/// Which shares: by day or range in the user's zone, and by icon category.
struct FilterOptions: ParsableArguments {
    @Option(help: "Only shares from this day (YYYY-MM-DD), in your time zone.")
    var date: String?

    @Option(help: "Only shares from this day or time on (YYYY-MM-DD or RFC 3339).")
    var from: String?

    @Option(help: "Only shares up to this day (inclusive) or time (exclusive).")
    var to: String?

    @Option(help: "Only these icon categories, comma-separated: image, pdf, doc, txt, ppt, xls, zip, audio, video, other.")
    var type: String?

    func validate() throws {
        if date != nil && (from != nil || to != nil) { throw ValidationError("give --date, or --from/--to, not both") }
        if let date, CalendarDay(date) == nil { throw ValidationError("--date must be a day as YYYY-MM-DD, got '\(date)'") }
    }

    /// The query parameters, with dates read in the zone named `zoneName` (always sent, so days are the user's).
    func parameters(zoneName: String) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        for (name, value) in [("date", date), ("from", from), ("to", to), ("type", type)] {
            if let value { parameters.append((name, value)) }
        }
        if date != nil || from != nil || to != nil { parameters.append(("tz", zoneName)) }
        return parameters
    }
}

/// How `ls` and `find` order and page their listing.
struct OrderOptions: ParsableArguments {
    @Option(help: "Order by: created, name or size (default created).")
    var sort: SortKey?

    @Flag(exclusivity: .exclusive)
    var direction: Direction?

    @OptionGroup var paging: PagingOptions

    var parameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let sort { parameters.append(("sort", sort.parameter)) }
        if let direction { parameters.append(("order", direction.rawValue)) }
        return parameters + paging.parameters
    }
}
