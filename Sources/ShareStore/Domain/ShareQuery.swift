import Foundation
import ShareKit

/// A listing request: filters combined with AND, a sort, and a page.
public struct ShareQuery: Equatable, Sendable {
    /// Inclusive lower bound on `createdAt`.
    public var createdFrom: Timestamp?
    /// Exclusive upper bound on `createdAt`.
    public var createdBefore: Timestamp?
    /// A folded (`SearchKey`) substring the name must contain.
    public var nameContains: String?
    public var types: Set<IconCategory>?
    public var folder: String?
    /// With `folder`, include its subfolders too.
    public var recursive = false
    public var sort = SortField.createdAt
    public var order = SortDirection.desc
    public var limit = ShareQuery.defaultLimit
    /// Continue after this record.
    public var cursor: ShareCursor?
    /// List the trash instead of the live records.
    public var trashed = false
    /// The zone `date`, `from` and `to` were read in, and statistics group days by.
    public var zone = ZonedCalendar(zone: .gmt)

    public static let defaultLimit = 100
    public static let maxLimit = 1000
    /// Every parameter `GET /share` understands; others are ignored so that old servers tolerate new clients.
    public static let parameterNames: Set<String> = [
        "date", "from", "to", "tz", "q", "type", "folder", "recursive", "sort", "order", "limit", "cursor", "trashed",
    ]

    public init() {}

    /// Parses query parameters, rejecting any invalid value with an error that names the parameter.
    ///
    /// - Parameter defaultZone: the zone of `date`, `from` and `to` when there is no `tz`.
    public init(parameters: [(name: String, value: String)], defaultZone: ZonedCalendar) throws(ShareError) {
        var values: [String: String] = [:]
        for (name, value) in parameters where Self.parameterNames.contains(name) {
            guard values.updateValue(value, forKey: name) == nil else {
                throw .invalidParameter(name, "is given more than once")
            }
            // No name holds a control character, and SQLite would cut a text at a NUL: refused, never dropped.
            if let control = value.unicodeScalars.first(where: FileName.isControl) {
                throw .invalidParameter(name, "must not contain control characters (found U+\(FileName.hex(control)))")
            }
        }

        var zone = defaultZone
        if let identifier = values["tz"] {
            guard let named = ZonedCalendar(identifier: identifier) else {
                throw .invalidParameter("tz", "must be an IANA time zone such as Europe/Paris, got '\(identifier)'")
            }
            zone = named
        }
        self.zone = zone
        if let text = values["date"] {
            guard let day = CalendarDay(text) else { throw .invalidParameter("date", "must be a date as YYYY-MM-DD, got '\(text)'") }
            let range = zone.range(of: day)
            narrow(from: range.lowerBound, before: range.upperBound)
        }
        if let text = values["from"] {
            narrow(from: try Self.instant(text, parameter: "from", zone: zone, dayEnd: false), before: nil)
        }
        if let text = values["to"] {
            narrow(from: nil, before: try Self.instant(text, parameter: "to", zone: zone, dayEnd: true))
        }
        nameContains = values["q"].map(SearchKey.fold)
        if let text = values["type"] { types = try Self.categories(text) }
        if let text = values["folder"] {
            do {
                folder = try FolderPath.normalize(text)
            } catch .invalidField(_, let reason) {
                throw .invalidParameter("folder", reason)
            }
        }
        if let text = values["recursive"] { recursive = try BooleanParameter.parse(text, parameter: "recursive") }
        if let text = values["trashed"] { trashed = try BooleanParameter.parse(text, parameter: "trashed") }
        if let text = values["sort"] { sort = try Self.choice(text, parameter: "sort") }
        if let text = values["order"] { order = try Self.choice(text, parameter: "order") }
        if let text = values["limit"] {
            guard let number = Int(text), (1...Self.maxLimit).contains(number) else {
                throw .invalidParameter("limit", "must be a whole number from 1 to \(Self.maxLimit), got '\(text)'")
            }
            limit = number
        }
        if let text = values["cursor"] {
            guard let decoded = ShareCursor(encoded: text) else {
                throw .invalidParameter("cursor", "is not a cursor this server issued; take it from a Link header")
            }
            guard decoded.sort == sort, decoded.order == order else {
                throw .invalidParameter("cursor", "was issued for sort=\(decoded.sort.rawValue) and order=\(decoded.order.rawValue); keep them when paging")
            }
            cursor = decoded
        }
    }

    /// Tightens the `createdAt` window; bounds only ever shrink, so every filter is honoured (AND).
    private mutating func narrow(from: Timestamp?, before: Timestamp?) {
        if let from { createdFrom = max(createdFrom ?? from, from) }
        if let before { createdBefore = min(createdBefore ?? before, before) }
    }

    /// A date means its whole day in `zone` (its start for `from`, the next day's start for `to`); a time means itself.
    private static func instant(_ text: String, parameter: String, zone: ZonedCalendar, dayEnd: Bool) throws(ShareError) -> Timestamp {
        if let day = CalendarDay(text) {
            return zone.start(of: dayEnd ? day.next : day)
        }
        guard let time = Timestamp(rfc3339: text) else {
            throw .invalidParameter(parameter, "must be a date (YYYY-MM-DD) or an RFC 3339 time, got '\(text)'")
        }
        return time
    }

    private static func categories(_ text: String) throws(ShareError) -> Set<IconCategory> {
        var categories: Set<IconCategory> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let category = IconCategory(rawValue: name.lowercased()) else {
                let known = IconCategory.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParameter("type", "must list categories among \(known), got '\(name)'")
            }
            categories.insert(category)
        }
        return categories
    }

    private static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, parameter: String) throws(ShareError) -> Choice
    where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text) else {
            let known = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParameter(parameter, "must be one of \(known), got '\(text)'")
        }
        return choice
    }
}
