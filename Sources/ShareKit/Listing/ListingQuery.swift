/// What a listing (`GET /share`) or its statistics (`GET /share/stats`) ask for, as one typed value from the
/// command line to the server: the CLI builds it, `ShareAPI` encodes it, the server decodes it (strictly, see
/// `ListingQuery+Form.swift`) and hands it to the store, which resolves it into instants and SQL.
///
/// Fields left nil were not asked for: the server's defaults apply, and they are not sent.
public struct ListingQuery: Equatable, Sendable {
    /// One end of a range: a whole day in the listing's zone, or an instant.
    public enum Bound: Equatable, Sendable, CustomStringConvertible {
        case day(CalendarDay)
        case instant(Timestamp)

        /// `YYYY-MM-DD` or an RFC 3339 time.
        public init?(_ text: String) {
            if let day = CalendarDay(text) {
                self = .day(day)
            } else if let instant = Timestamp(rfc3339: text) {
                self = .instant(instant)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .day(let day): return day.description
            case .instant(let instant): return instant.description
            }
        }
    }

    /// The shares of one calendar day in `zone`.
    public var date: CalendarDay?
    /// From the start of a day, or from an instant, inclusive.
    public var from: Bound?
    /// To the end of a day (inclusive), or to an instant (exclusive).
    public var to: Bound?
    /// The IANA zone `date`, `from` and `to` are read in, and statistics group days by; nil: the server's zone.
    public var zone: String?
    /// Words the file name holds, in any order (`SearchWords`), compared after NFC and full case folding.
    public var text: String?
    public var types: Set<IconCategory>?
    /// Shares whose link is in one of these states; a record this service does not open has none.
    public var states: Set<ShareState>?
    /// A normalised folder (`FolderPath`).
    public var folder: String?
    /// With `folder`, its subfolders too.
    public var recursive: Bool?
    /// The trash instead of the live records.
    public var trashed: Bool?
    public var sort: ListingSort?
    public var order: ListingOrder?
    /// Records per page, within `limits`.
    public var limit: Int?
    /// Where the previous page ended: opaque, as the server wrote it in a `Link` header.
    public var cursor: String?

    public static let defaultLimit = 100
    public static let limits = 1...1000

    public init() {}
}

/// What a listing is ordered by; ties are always broken by id so that pages never overlap or skip.
public enum ListingSort: String, CaseIterable, Sendable {
    case createdAt, name, size, downloads
}

/// `asc`: oldest, smallest, least downloaded or A first; `desc` (the default): newest, largest, most downloaded or Z
/// first.
public enum ListingOrder: String, CaseIterable, Sendable {
    case asc, desc
}
